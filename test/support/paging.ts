/**
 * Paged lists (spec conventions 6): walk a list page by page through `next_cursor` and check the
 * convention on the way (every page has `items` and `next_cursor`, no page is larger than asked,
 * only the last has a null cursor), and check that cursors nobody gave out are refused.
 */
import { expect } from "vitest";
import type { HttpClient } from "./app.js";
import { expectError } from "./auth.js";

const withQuery = (path: string, query: string) => `${path}${path.includes("?") ? "&" : "?"}${query}`;

/** Every item of the list at `path`, `limit` at a time, and how many pages that took. */
export async function walkPages<T = any>(client: Pick<HttpClient, "get">, path: string, limit: number): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await client.get(withQuery(path, `limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(expect.arrayContaining(["items", "next_cursor"]));
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    cursor = res.body.next_cursor as string | null;
    // A page that promises more is full.
    if (cursor !== null) expect(res.body.items.length).toBe(limit);
    items.push(...(res.body.items as T[]));
    pages += 1;
    expect(pages, "the list never ends").toBeLessThan(1000);
  } while (cursor !== null);
  return { items, pages };
}

/** Cursors this list never gave out: each is 400 validation_failed, none a server error. */
export async function expectMalformedCursorsRefused(client: Pick<HttpClient, "get">, path: string): Promise<void> {
  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const bad = [
    "not-a-cursor",
    "%%%",
    b64({ at: "2024-01-01T00:00:00Z" }),
    b64(["2024-01-01T00:00:00Z"]),
    b64(["yesterday", "0190b1c2-0000-7000-8000-000000000000"]),
    b64(["2024-01-01T00:00:00Z", "not-a-uuid"]),
    b64(["2024-01-01T00:00:00Z", "0190b1c2-0000-7000-8000-000000000000", "extra"]),
    "x".repeat(2049),
  ];
  for (const cursor of bad) {
    const res = await client.get(withQuery(path, `cursor=${encodeURIComponent(cursor)}`));
    expectError(res, 400, "validation_failed");
  }
  for (const limit of ["0", "201", "ten"]) expectError(await client.get(withQuery(path, `limit=${limit}`)), 400, "validation_failed");
}
