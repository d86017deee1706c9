/**
 * Photos this device has seen, kept for offline viewing within a budget: thumbnails up to
 * THUMB_BUDGET_BYTES, full-size photos up to FULL_BUDGET_BYTES, the least recently seen leaving
 * first. Kept in the user's own database, so signing out deletes them with the rest and another
 * person on the device never sees them. Photos taken on this device are not here: they stay in
 * `blobs` (database.ts) and show from there.
 */
import type { InventoryDb, PhotoSize } from "./database.js";

export type { PhotoSize };

/** About 2,000 thumbnails (at most 320 px WebP, 5 to 15 kB each). */
export const THUMB_BUDGET_BYTES = 25 * 1024 * 1024;
/** About 30 phone photos: full size is only fetched when a person opens one. */
export const FULL_BUDGET_BYTES = 100 * 1024 * 1024;
const BUDGET: Record<PhotoSize, number> = { thumb: THUMB_BUDGET_BYTES, full: FULL_BUDGET_BYTES };

/** A seen photo is marked used again at most this often, so showing a list does not write for every row. */
const TOUCH_AFTER_MS = 60 * 60 * 1000;

export const photoKey = (fileId: string, size: PhotoSize) => `${fileId}:${size}`;

/** The kept photo of that size, marked as used now. */
export async function cachedPhoto(db: InventoryDb, fileId: string, size: PhotoSize, now = Date.now()): Promise<Blob | undefined> {
  const hit = await db.photo_cache.get(photoKey(fileId, size));
  if (hit && now - hit.usedAt > TOUCH_AFTER_MS) await db.photo_cache.update(hit.key, { usedAt: now });
  return hit?.blob;
}

/** Keeps a fetched photo, then lets the least recently seen of its size go until the size is within its budget. */
export async function keepPhoto(db: InventoryDb, fileId: string, size: PhotoSize, blob: Blob, now = Date.now()): Promise<void> {
  await db.transaction("rw", db.photo_cache, async () => {
    await db.photo_cache.put({ key: photoKey(fileId, size), fileId, size, blob, bytes: blob.size, usedAt: now });
    let total = 0;
    const gone: string[] = [];
    // Newest first: what is past the budget once the newer ones are counted leaves.
    await db.photo_cache
      .orderBy("usedAt")
      .reverse()
      .each((p) => {
        if (p.size !== size) return;
        total += p.bytes;
        if (total > BUDGET[size] && p.key !== photoKey(fileId, size)) gone.push(p.key);
      });
    if (gone.length) await db.photo_cache.bulkDelete(gone);
  });
}
