/**
 * A new, open inbox item as every producer writes it (captures, implausible readings and nudges,
 * label claims that met another claim, sync drops): the producer says what it is about, the rest
 * starts the same for all of them. It is the write core's, not the inbox module's, so that the
 * producers (things, meters, codes, receipts, duplicates) stand beside the inbox, not under it.
 */
import { v7 as uuidv7 } from "uuid";
import type { inboxItems } from "../db/schema/index.js";

type ItemRow = typeof inboxItems.$inferInsert & { id: string };

export interface NewItem {
  id?: string;
  locationId: string;
  kind: ItemRow["kind"];
  thingId: string | null;
  /** Items made together share a batch; alone, an item is its own batch. */
  batchId?: string;
  /** When the person captured it (the device's time), else now. */
  capturedAt?: Date;
  createdBy: string | null;
  payload: Record<string, unknown>;
}

export function newInboxItem(item: NewItem, now: Date): ItemRow & { rowVersion: number } {
  const id = item.id ?? uuidv7();
  return {
    id,
    locationId: item.locationId,
    kind: item.kind,
    status: "open",
    thingId: item.thingId,
    batchId: item.batchId ?? id,
    capturedAt: item.capturedAt ?? now,
    createdBy: item.createdBy,
    payload: item.payload,
    undoEventId: null,
    resolvedAt: null,
    resolvedBy: null,
    rowVersion: 1,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
  };
}
