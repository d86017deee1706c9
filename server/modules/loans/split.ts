/**
 * Lending part of a quantity (3 of 5) splits the thing: the original keeps the rest and a new thing
 * holding the lent part becomes the loan's thing; the return joins it back. Nothing is lost: the
 * new thing copies the original's type, name, fields, tags, brand and cover (files stay the
 * original's), and both keep their history. Neither change is undoable on its own: undoing the
 * quantity of one half would leave the other half counted twice.
 */
import { Decimal } from "decimal.js";
import type { SegmentChanges } from "../../commands/segment.js";
import { things } from "../../db/schema/index.js";
import type { ThingRow } from "../things/values.js";

export const qty = (q: string) => new Decimal(q).toFixed(3);

/** Records `next` in place of `before` (quantity or tombstone), with its history entry. */
function recordChange(
  changes: SegmentChanges,
  before: ThingRow,
  next: ThingRow,
  key: "quantity" | "deletedAt",
  action: string,
  params: Record<string, string>,
) {
  changes.update(things, next, [key, "rowVersion", "updatedAt"]);
  const value = (r: ThingRow) => (key === "quantity" ? r.quantity : (r.deletedAt?.toISOString() ?? null));
  return changes.record({
    locationId: next.locationId,
    entityType: "thing",
    entityId: next.id,
    entityName: next.name,
    action,
    before: { [key]: value(before) },
    after: { [key]: value(next) },
    summaryKey: action,
    summaryParams: { name: next.name ?? "", ...params },
    rowVersionAfter: next.rowVersion,
    undoable: false,
  });
}

/** Splits `quantity` off `original` as the new thing `id`; answers both as they now are. */
export function splitOff(
  changes: SegmentChanges,
  now: Date,
  actorId: string | null,
  original: ThingRow,
  id: string,
  quantity: string,
  person: string,
): { original: ThingRow; split: ThingRow } {
  const left = new Decimal(original.quantity).minus(quantity).toFixed(3);
  const kept: ThingRow = { ...original, quantity: left, rowVersion: original.rowVersion + 1, updatedAt: now };
  recordChange(changes, original, kept, "quantity", "thing.split", { quantity: new Decimal(quantity).toString(), person });
  const split: ThingRow = {
    ...original,
    id,
    quantity: qty(quantity),
    // Short codes are unique: the database gives the new thing its own (migration 0019).
    shortCode: null,
    fieldStatus: {},
    missingSince: null,
    createdBy: actorId,
    rowVersion: 1,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
  changes.insert(things, split);
  changes.record({
    locationId: split.locationId,
    entityType: "thing",
    entityId: split.id,
    entityName: split.name,
    action: "thing.split_from",
    before: { quantity: null },
    after: { quantity: split.quantity },
    summaryKey: "thing.split_from",
    summaryParams: { name: split.name ?? "", quantity: new Decimal(quantity).toString(), person },
    rowVersionAfter: 1,
    undoable: false,
  });
  return { original: kept, split };
}

/**
 * Joins a returned split thing back into its original: the original's quantity grows by the
 * loan's, the split thing is tombstoned. Answers the original as it now is.
 */
export function joinBack(changes: SegmentChanges, now: Date, split: ThingRow, original: ThingRow, quantity: string): ThingRow {
  const grown: ThingRow = {
    ...original,
    quantity: new Decimal(original.quantity).plus(quantity).toFixed(3),
    rowVersion: original.rowVersion + 1,
    updatedAt: now,
  };
  const n = new Decimal(quantity).toString();
  recordChange(changes, original, grown, "quantity", "thing.joined", { quantity: n });
  const gone: ThingRow = { ...split, deletedAt: now, rowVersion: split.rowVersion + 1, updatedAt: now };
  recordChange(changes, split, gone, "deletedAt", "thing.joined_into", { quantity: n, into: original.name ?? "" });
  return grown;
}
