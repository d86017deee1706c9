/** A thing's edits as ops in the outbox, with the rowVersion the device saw (sync/SPEC.md VE4). */
import type { ThingPatch } from "../../shared/things.js";
import type { Op } from "../../sync/ops.js";
import type { InventoryDb } from "../db/database.js";
import type { ThingRow } from "../db/rows.js";
import { enqueue } from "../sync/outbox.js";

/** A thing.update patch (custom `fields` merge by key; `tagIds` replaces the list). */
export type ThingEdit = ThingPatch;

export function queueThingUpdate(db: InventoryDb, locationId: string, thing: Pick<ThingRow, "id" | "rowVersion">, patch: ThingEdit): Promise<Op> {
  // Only server rows have a version; a thing created on this device pushes without one.
  const base = thing.rowVersion > 0 ? { baseVersion: thing.rowVersion } : {};
  return enqueue(db, { name: "thing.update", locationId, args: { id: thing.id, patch }, ...base });
}

/** "Use this": the suggestion of that extraction becomes the field's value (thing.suggestion.accept). */
export function queueSuggestionAccept(db: InventoryDb, locationId: string, thingId: string, field: string, extractionId: string): Promise<Op> {
  return enqueue(db, { name: "thing.suggestion.accept", locationId, args: { id: thingId, field, extractionId } });
}

/** "Confirm": a person says the value read from a photo is right (thing.field.confirm). */
export function queueFieldConfirm(db: InventoryDb, locationId: string, thingId: string, field: string): Promise<Op> {
  return enqueue(db, { name: "thing.field.confirm", locationId, args: { id: thingId, field } });
}
