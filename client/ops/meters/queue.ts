/**
 * What the screens call to queue the meter ops (meter.*.ts, reading.capture.ts). They sit beside the op files, not in them: queueing goes
 * through the outbox, whose checks replay every op through the op table (client/ops/index.ts), so
 * an op file that imported the outbox would be imported by what it imports.
 */
import { v7 as uuidv7 } from "uuid";
import type { MeterCreateArgs, MeterUpdateArgs } from "../../../shared/meters.js";
import type { Op } from "../../../sync/ops.js";
import type { InventoryDb } from "../../db/database.js";
import { enqueue } from "../../sync/outbox.js";
import type { MeterRow } from "../../db/rows.js";

export function queueMeterCreate(db: InventoryDb, locationId: string, args: Omit<MeterCreateArgs, "id">): Promise<Op> {
  return enqueue(db, { name: "meter.create", locationId, args: { id: uuidv7(), ...args } });
}

export function queueMeterDelete(db: InventoryDb, meter: Pick<MeterRow, "id" | "locationId" | "rowVersion">): Promise<Op> {
  const base = meter.rowVersion > 0 ? { baseVersion: meter.rowVersion } : {};
  return enqueue(db, { name: "meter.delete", locationId: meter.locationId, args: { id: meter.id }, ...base });
}

export function queueMeterUpdate(db: InventoryDb, meter: Pick<MeterRow, "id" | "locationId" | "rowVersion">, patch: MeterUpdateArgs["patch"]): Promise<Op> {
  const base = meter.rowVersion > 0 ? { baseVersion: meter.rowVersion } : {};
  return enqueue(db, { name: "meter.update", locationId: meter.locationId, args: { id: meter.id, patch }, ...base });
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
