/**
 * The one writer of inbox items (DESIGN.md "One write path"). A new item starts the same for every
 * producer (captures, implausible readings and nudges, label claims that met another claim,
 * duplicates, receipts' questions, sync drops): the producer says what it is about, newInboxItem
 * makes the rest. An item's payload mirrors what a job learns later (an extraction's status, a
 * receipt's reading) through mirrorInboxPayload. Commands add new items to their segment
 * (SegmentChanges.insert); code outside a segment inserts them with insertInboxItems.
 */
import { v7 as uuidv7 } from "uuid";
import { type Queryable, type Tx, sql } from "../db/client.js";
import { inboxItems } from "../db/schema/index.js";
import { bulkInsert } from "./bulk.js";

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

/** New items (made by newInboxItem) in one statement. */
export async function insertInboxItems(tx: Tx, items: (ItemRow & { rowVersion: number })[]): Promise<void> {
  if (items.length) await bulkInsert(tx, inboxItems, items);
}

/** Which items a mirror writes into: of these kinds, by their id or by the thing they are about; `open` only if still open and live. */
export interface MirrorMatch {
  by: "id" | "thing";
  ids: readonly string[];
  kinds: readonly ItemRow["kind"][];
  open: boolean;
}

/**
 * Sets `payload[key]` of the matched items to `value` (or to `value(id)`, per matched id or thing
 * id). Not a person's change: the items' rowVersion stays, so a reviewer's offline accept still
 * applies; the change log still carries the new payload to devices. With `now`, updatedAt moves.
 */
export async function mirrorInboxPayload(tx: Queryable, key: string, match: MirrorMatch, value: unknown, now: Date | null): Promise<void> {
  if (!match.ids.length) return;
  const pairs = match.ids.map((id) => ({ m: id, x: typeof value === "function" ? (value as (id: string) => unknown)(id) : value }));
  const by = match.by === "id" ? sql`i.id = v.m` : sql`i.thing_id = v.m`;
  await tx.execute(
    sql`UPDATE inbox_items i SET payload = i.payload || jsonb_build_object(${key}::text, v.x)${now ? sql`, updated_at = ${now.toISOString()}::timestamptz` : sql``}
        FROM jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) AS v(m uuid, x jsonb)
        WHERE ${by} AND i.kind = ANY(${`{${match.kinds.join(",")}}`}::text[])${match.open ? sql` AND i.status = 'open' AND i.deleted_at IS NULL` : sql``}`,
  );
}
