/**
 * A list the server gives a page at a time (`{ items, next_cursor }`), for the hooks of the screens
 * that need the network: the first page loads through useOnlineLoad (again when `deps` change, or
 * on reload() after a change), more() appends the next one.
 */
import { useState } from "react";
import { useOnlineLoad } from "./OnlineOnly.js";

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** `?limit=N`, with the cursor of the page to start after when there is one. */
export const pageQuery = (limit: number, after: string | null): string => `?limit=${limit}${after ? `&cursor=${encodeURIComponent(after)}` : ""}`;

export function usePaged<T>(fetchPage: (after: string | null) => Promise<Page<T>>, deps: readonly unknown[]) {
  const [items, setItems] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const page = (after: string | null) =>
    fetchPage(after).then((p) => {
      setItems((old) => (after ? [...(old ?? []), ...p.items] : p.items));
      setCursor(p.next_cursor);
    });
  const load = useOnlineLoad(() => page(null), deps);
  return { ...load, items, hasMore: cursor !== null, more: () => (cursor ? page(cursor) : Promise.resolve()) };
}
