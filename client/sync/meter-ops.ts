/**
 * Meter and reading changes as ops in the outbox (they work with no network). A reading's photo
 * proof is kept in db.blobs under an id made here, which the op names as its `fileId`; the pusher
 * uploads the photo before it pushes the op (blob-upload.ts), as it does for captures.
 */
import { v7 as uuidv7 } from "uuid";
import type { MeterCreateArgs, MeterUpdateArgs } from "../../shared/meters.js";
import type { Op } from "../../sync/ops.js";
import type { InventoryDb } from "../db/database.js";
import type { MeterRow } from "../db/rows.js";
import { enqueue } from "./outbox.js";

export function queueMeterCreate(db: InventoryDb, locationId: string, args: Omit<MeterCreateArgs, "id">): Promise<Op> {
  return enqueue(db, { name: "meter.create", locationId, args: { id: uuidv7(), ...args } });
}

/** With the rowVersion the device saw, so a concurrent edit becomes a sync_drop instead of silently winning. */
export function queueMeterUpdate(db: InventoryDb, meter: Pick<MeterRow, "id" | "locationId" | "rowVersion">, patch: MeterUpdateArgs["patch"]): Promise<Op> {
  const base = meter.rowVersion > 0 ? { baseVersion: meter.rowVersion } : {};
  return enqueue(db, { name: "meter.update", locationId: meter.locationId, args: { id: meter.id, patch }, ...base });
}

export function queueMeterDelete(db: InventoryDb, meter: Pick<MeterRow, "id" | "locationId" | "rowVersion">): Promise<Op> {
  const base = meter.rowVersion > 0 ? { baseVersion: meter.rowVersion } : {};
  return enqueue(db, { name: "meter.delete", locationId: meter.locationId, args: { id: meter.id }, ...base });
}

export async function queueReading(
  db: InventoryDb,
  meter: Pick<MeterRow, "id" | "locationId">,
  reading: { value: string; takenAt: string; photo?: Blob | undefined },
): Promise<Op> {
  const fileId = reading.photo ? uuidv7() : undefined;
  if (reading.photo && fileId) {
    // Not filed under the thing: a proof belongs to its reading, not to the thing's photos.
    await db.blobs.put({ id: fileId, locationId: meter.locationId, thingId: null, blob: reading.photo, state: "local", createdAt: new Date().toISOString() });
  }
  return enqueue(
    db,
    {
      name: "reading.capture",
      locationId: meter.locationId,
      args: { id: uuidv7(), meterId: meter.id, value: reading.value, takenAt: reading.takenAt, ...(fileId ? { fileId } : {}) },
    },
    fileId ? [fileId] : [],
  );
}
