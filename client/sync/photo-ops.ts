/**
 * A thing's photos on the device: the photo ops as the server applies them
 * (server/modules/things/photos.ts), replayed over the stored row so a photo added, removed or made
 * the cover shows at once, offline too; and queueing them, refused at once for a role that cannot
 * write (the device knows its role from the memberships shape), with the photo kept beside the op
 * and uploaded before it (blob-upload.ts).
 */
import { v7 as uuidv7 } from "uuid";
import { roleAtLeast, type Role } from "../../shared/roles.js";
import { THING_PHOTOS_MAX } from "../../shared/thing-photos.js";
import type { Op } from "../../sync/ops.js";
import type { InventoryDb } from "../db/database.js";
import type { ThingRow } from "../db/rows.js";
import { enqueue } from "./outbox.js";

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

/** Why the device will not queue a photo change: the person's role here cannot write. */
export class PhotoChangeRefused extends Error {}

function mayChange(role: Role | undefined): void {
  if (!role || !roleAtLeast(role, "member")) throw new PhotoChangeRefused(`role ${role ?? "none"} cannot change photos`);
}

type Target = Pick<ThingRow, "id" | "locationId" | "rowVersion">;
const base = (thing: Target) => (thing.rowVersion > 0 ? { baseVersion: thing.rowVersion } : {});

/**
 * Keeps the photo on the device (it shows from here at once, and with no network) and queues
 * thing.photo.add; the pusher uploads the photo before the op.
 */
export async function queuePhotoAdd(db: InventoryDb, role: Role | undefined, thing: Target, photo: Blob, cover = false): Promise<string> {
  mayChange(role);
  const fileId = uuidv7();
  await db.blobs.put({ id: fileId, locationId: thing.locationId, thingId: thing.id, blob: photo, state: "local", createdAt: new Date().toISOString() });
  await enqueue(db, { name: "thing.photo.add", locationId: thing.locationId, args: { id: thing.id, fileId, ...(cover ? { cover } : {}) }, ...base(thing) }, [
    fileId,
  ]);
  return fileId;
}

export async function queuePhotoChange(
  db: InventoryDb,
  role: Role | undefined,
  thing: Target,
  name: "thing.photo.remove" | "thing.photo.cover",
  fileId: string,
): Promise<void> {
  mayChange(role);
  await enqueue(db, { name, locationId: thing.locationId, args: { id: thing.id, fileId }, ...base(thing) });
}
