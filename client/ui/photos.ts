/**
 * Where a screen gets a photo from, lazily: the photo taken on this device (db.blobs: at once,
 * before its upload, with no network), else the copy kept from an earlier visit
 * (../db/photo-cache.ts), else the server, once per file and size however many screens ask,
 * kept for next time. A thumbnail falls back on a kept full-size copy; full size is fetched only
 * when a person opens a photo. With no network and no copy, the answer is "unavailable" and the
 * screen tries again when the network returns.
 */
import { useEffect, useState } from "react";
import { fileUrl, thumbUrl } from "../../shared/files.js";
import type { InventoryDb } from "../db/database.js";
import { cachedPhoto, keepPhoto, photoKey, type PhotoSize } from "../db/photo-cache.js";
import { ApiError, request } from "../sync/api.js";
import { useReady } from "./session.js";

/** Fetches under way, by cache key, so a list showing one photo twice fetches it once. */
const fetching = new Map<string, Promise<Blob | null>>();

/** The server's copy, kept; null when the server has none of that size (404, or a kind it cannot thumbnail). */
function fetchPhoto(db: InventoryDb, fileId: string, size: PhotoSize): Promise<Blob | null> {
  const key = photoKey(fileId, size);
  let pending = fetching.get(key);
  if (!pending) {
    pending = (async () => {
      try {
        const blob = await (await request("GET", size === "thumb" ? thumbUrl(fileId) : fileUrl(fileId))).blob();
        await keepPhoto(db, fileId, size, blob);
        return blob;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }
    })().finally(() => fetching.delete(key));
    fetching.set(key, pending);
  }
  return pending;
}

/** The photo's bytes from wherever they are nearest; throws when only the network has them and it is down. */
export async function photoBlob(db: InventoryDb, fileId: string, size: PhotoSize): Promise<Blob | null> {
  const own = await db.blobs.get(fileId);
  if (own) return own.blob;
  const kept = (await cachedPhoto(db, fileId, size)) ?? (size === "thumb" ? await cachedPhoto(db, fileId, "full") : undefined);
  return kept ?? fetchPhoto(db, fileId, size);
}

export type PhotoState = { src: string; state: "shown" } | { src: null; state: "loading" | "missing" | "unavailable" };

/**
 * An object URL of the photo for an <img>, revoked when the screen lets go of it. Nothing is read
 * or fetched until `wanted` (a row scrolled into view).
 */
export function usePhoto(fileId: string | null | undefined, size: PhotoSize, wanted = true): PhotoState {
  const { db } = useReady();
  const [state, setState] = useState<PhotoState>({ src: null, state: "loading" });
  const [online, setOnline] = useState(0);
  useEffect(() => {
    const again = () => setOnline((n) => n + 1);
    window.addEventListener("online", again);
    return () => window.removeEventListener("online", again);
  }, []);
  useEffect(() => {
    if (!fileId) return setState({ src: null, state: "missing" });
    if (!wanted) return;
    let live = true;
    let url: string | null = null;
    setState({ src: null, state: "loading" });
    photoBlob(db, fileId, size).then(
      (blob) => {
        if (!live) return;
        if (!blob) return setState({ src: null, state: "missing" });
        url = URL.createObjectURL(blob);
        setState({ src: url, state: "shown" });
      },
      () => live && setState({ src: null, state: "unavailable" }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [db, fileId, size, online, wanted]);
  return state;
}
