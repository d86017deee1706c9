/**
 * What the screens call to queue the thing ops (thing.update.ts, thing.field.confirm.ts,
 * thing.suggestion.accept.ts, thing.photo.*.ts). They sit beside the op files, not in them:
 * queueing goes through the outbox, whose checks replay every op through the op table
 * (client/ops/index.ts), so an op file that imported the outbox would be imported by what it imports.
 */
import { v7 as uuidv7 } from "uuid";
import type { Role } from "../../../shared/roles.js";
import type { InventoryDb } from "../../db/database.js";
import type { ThingRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { type PhotoTarget, mayChange, photoBase } from "./photos.js";
import type { Op } from "../../../sync/ops.js";
import type { ThingEdit } from "./thing.update.js";

/** Queues thing.photo.remove or thing.photo.cover of a photo the thing has. */
export async function queuePhotoChange(
  db: InventoryDb,
  role: Role | undefined,
  thing: PhotoTarget,
  name: "thing.photo.remove" | "thing.photo.cover",
  fileId: string,
): Promise<void> {
  mayChange(role);
  await enqueue(db, { name, locationId: thing.locationId, args: { id: thing.id, fileId }, ...photoBase(thing) });
}

export function queueFieldConfirm(db: InventoryDb, locationId: string, thingId: string, field: string): Promise<Op> {
  return enqueue(db, { name: "thing.field.confirm", locationId, args: { id: thingId, field } });
}

export async function queuePhotoAdd(db: InventoryDb, role: Role | undefined, thing: PhotoTarget, photo: Blob, cover = false): Promise<string> {
  mayChange(role);
  const fileId = uuidv7();
  await db.blobs.put({ id: fileId, locationId: thing.locationId, thingId: thing.id, blob: photo, state: "local", createdAt: new Date().toISOString() });
  await enqueue(
    db,
    { name: "thing.photo.add", locationId: thing.locationId, args: { id: thing.id, fileId, ...(cover ? { cover } : {}) }, ...photoBase(thing) },
    [fileId],
  );
  return fileId;
}

export function queueSuggestionAccept(db: InventoryDb, locationId: string, thingId: string, field: string, extractionId: string): Promise<Op> {
  return enqueue(db, { name: "thing.suggestion.accept", locationId, args: { id: thingId, field, extractionId } });
}

export function queueThingUpdate(db: InventoryDb, locationId: string, thing: Pick<ThingRow, "id" | "rowVersion">, patch: ThingEdit): Promise<Op> {
  // Only server rows have a version; a thing created on this device pushes without one.
  const base = thing.rowVersion > 0 ? { baseVersion: thing.rowVersion } : {};
  return enqueue(db, { name: "thing.update", locationId, args: { id: thing.id, patch }, ...base });
}
