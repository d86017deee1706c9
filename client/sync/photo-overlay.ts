/**
 * A thing's photos on the device: the photo ops as the server applies them
 * (server/modules/things/photos.ts), replayed over the stored row so a photo added, removed or made
 * the cover shows at once, offline too (optimistic.ts). Pure: queueing them is photo-ops.ts.
 */
import { THING_PHOTOS_MAX } from "../../shared/thing-photos.js";
import type { Op } from "../../sync/ops.js";
import type { ThingRow } from "../db/rows.js";

export type PhotoOp = Extract<Op, { name: "thing.photo.add" | "thing.photo.remove" | "thing.photo.cover" }>;
type Photos = Pick<ThingRow, "photoFileIds" | "coverFileId">;

/** The thing's photos after `op`; unchanged where the server would refuse it (the drop then says why). */
export function applyPhotoOp<T extends Photos>(t: T, op: PhotoOp): T {
  const photos = t.photoFileIds ?? [];
  const { fileId } = op.args;
  switch (op.name) {
    case "thing.photo.add": {
      const has = photos.includes(fileId);
      if (!has && photos.length >= THING_PHOTOS_MAX) return t;
      return { ...t, photoFileIds: has ? photos : [...photos, fileId], coverFileId: op.args.cover || !t.coverFileId ? fileId : t.coverFileId };
    }
    case "thing.photo.remove": {
      const rest = photos.filter((f) => f !== fileId);
      return { ...t, photoFileIds: rest, coverFileId: t.coverFileId === fileId ? (rest[0] ?? null) : t.coverFileId };
    }
    case "thing.photo.cover":
      return photos.includes(fileId) ? { ...t, coverFileId: fileId } : t;
  }
}

/** A merged capture's photos join the thing's, as the server merges them (server/modules/inbox/commands.ts). */
export function withPhotosOf<T extends Photos>(t: T, draft: Photos): T {
  const photos = t.photoFileIds ?? [];
  const all = [...new Set([...photos, ...draft.photoFileIds])].slice(0, Math.max(THING_PHOTOS_MAX, photos.length));
  return { ...t, photoFileIds: all, coverFileId: t.coverFileId ?? draft.coverFileId ?? all[0] ?? null };
}
