/**
 * Queueing a thing's photo changes (add, remove, choose the cover), refused at once for a role that
 * cannot write (the device knows its role from the memberships shape), with the photo kept beside
 * the op and uploaded before it (blob-upload.ts). How they show at once: photo-overlay.ts.
 */
import { v7 as uuidv7 } from "uuid";
import { roleAtLeast, type Role } from "../../shared/roles.js";
import type { InventoryDb } from "../db/database.js";
import type { ThingRow } from "../db/rows.js";
import { enqueue } from "./outbox.js";

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
