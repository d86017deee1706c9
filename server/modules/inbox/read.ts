/** Inbox items in the spec's shape, listed newest first with keyset paging. */
import { thumbUrl } from "../files/read.js";
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { InboxItem } from "../../../shared/inbox.js";
import { rows, type Tx } from "../../db/client.js";
import { locationAccess } from "../../access/location.js";
import { historyEntries, inboxItems, things, users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { pageOfRows } from "../../db/paging.js";
import { summaries } from "../things/read.js";
import { visibleLocations } from "../../access/visible.js";
import type { InboxCurrency, ReceiptPayload } from "../../../shared/receipts.js";
import { currencyOut, receiptOut } from "../receipts/read.js";

type Row = typeof inboxItems.$inferSelect;

export async function inboxOut(tx: Tx, rowsIn: Row[]): Promise<InboxItem[]> {
  if (!rowsIn.length) return [];
  const userIds = [...new Set(rowsIn.map((r) => r.createdBy).filter((x): x is string => !!x))];
  const names = new Map(
    userIds.length ? (await tx.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds))).map((u) => [u.id, u.name]) : [],
  );
  const batchIds = [...new Set(rowsIn.map((r) => r.batchId))];
  const counts = new Map(
    (
      await tx
        .select({ batchId: inboxItems.batchId, n: sql<number>`count(*)::int` })
        .from(inboxItems)
        .where(and(inArray(inboxItems.batchId, batchIds), eq(inboxItems.status, "open")))
        .groupBy(inboxItems.batchId)
    ).map((c) => [c.batchId, c.n]),
  );
  const otherOf = (r: Row) => (r.payload as { duplicate?: { otherId?: string } }).duplicate?.otherId;
  const thingIds = [...new Set([...rowsIn.map((r) => r.thingId), ...rowsIn.map(otherOf)].filter((x): x is string => !!x))];
  const thingRows = thingIds.length ? await tx.select().from(things).where(inArray(things.id, thingIds)) : [];
  const thingById = new Map((await summaries(tx, thingRows)).map((t) => [t.id, t]));
  const live = new Set(thingRows.filter((t) => !t.deletedAt).map((t) => t.id));
  const statusOf = new Map(thingRows.map((t) => [t.id, t.fieldStatus]));
  const moneyKeys = await hiddenMoneyKeys(tx, [...new Set(thingRows.map((t) => t.locationId))]);
  const undoIds = rowsIn.map((r) => r.undoEventId).filter((x): x is string => !!x);
  const undoable = new Map(
    undoIds.length
      ? (
          await tx
            .select({ id: historyEntries.id, until: historyEntries.undoableUntil, undone: historyEntries.undoneAt })
            .from(historyEntries)
            .where(inArray(historyEntries.id, undoIds))
        )
          .filter((h) => h.until && !h.undone && h.until.getTime() > Date.now())
          .map((h) => [h.id, h.until!.toISOString()])
      : [],
  );
  // Receipts show amounts only to those who may see money in their location.
  const seesMoney = rowsIn.some((r) => r.kind === "receipt")
    ? new Set((await visibleLocations(tx)).filter((v) => v.seesMoney).map((v) => v.location.id))
    : new Set<string>();
  return rowsIn.map((r) => {
    const p = r.payload as {
      receipt?: ReceiptPayload;
      currency?: InboxCurrency;
      placePath?: InboxItem["batch"]["placePath"];
      photos?: { fileId: string }[];
      syncDrop?: InboxItem["syncDrop"];
      reading?: InboxItem["reading"];
      claim?: InboxItem["claim"];
      duplicate?: { otherId: string; reason: NonNullable<InboxItem["duplicate"]>["reason"] };
      extraction?: InboxItem["extraction"];
    };
    // The other thing of a duplicate, as the reader sees it now (gone if it was deleted since).
    const other = p.duplicate && live.has(p.duplicate.otherId) ? thingById.get(p.duplicate.otherId) : undefined;
    const thing = r.thingId ? thingById.get(r.thingId) : undefined;
    const until = r.undoEventId ? undoable.get(r.undoEventId) : undefined;
    return {
      id: r.id,
      kind: r.kind,
      locationId: r.locationId,
      createdAt: r.createdAt.toISOString(),
      createdBy: { displayName: (r.createdBy && names.get(r.createdBy)) || "Former member" },
      rowVersion: r.rowVersion,
      status: r.status,
      batch: {
        id: r.batchId,
        capturedAt: r.capturedAt.toISOString(),
        placePath: (p.placePath ?? []).map(({ id, name, kind, isUnplaced }) => ({ id, name, kind, isUnplaced })),
        count: counts.get(r.batchId) ?? 1,
      },
      ...(thing
        ? {
            thing: {
              ...thing,
              photos: (p.photos ?? []).map((f) => ({ fileId: f.fileId, thumbUrl: thumbUrl(f.fileId) })),
              // What the AI filled in or suggests (server/modules/extractions/); an absent field is a person's own.
              fieldStatus: withoutKeys(statusOf.get(thing.id) ?? {}, moneyKeys.get(r.locationId)),
            },
          }
        : {}),
      // The latest extraction of the item's thing, kept current by the pipeline.
      ...(p.extraction ? { extraction: p.extraction } : {}),
      ...(p.syncDrop ? { syncDrop: p.syncDrop } : {}),
      // Written in the spec's shape by the meters and codes modules when they make the item.
      ...(p.reading ? { reading: p.reading } : {}),
      ...(p.claim ? { claim: p.claim } : {}),
      ...(p.receipt ? { receipt: receiptOut(p.receipt, seesMoney.has(r.locationId)) } : {}),
      ...(p.currency ? { currency: currencyOut(p.currency) } : {}),
      ...(p.duplicate && other ? { duplicate: { other, reason: p.duplicate.reason } } : {}),
      ...(until && r.undoEventId ? { undo: { eventId: r.undoEventId, until } } : {}),
    };
  });
}

/**
 * For each of these locations where the reader may not see money: the status keys of its money
 * fields (`fields.<key>`). What the AI read for a money field is as much money as its value.
 */
async function hiddenMoneyKeys(tx: Tx, locationIds: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const loc of locationIds) {
    if ((await locationAccess(tx, loc)).seesMoney) continue;
    const found = await rows<{ key: string }>(
      tx,
      sql`SELECT 'fields.' || f.key AS key FROM type_fields f JOIN locations l ON l.account_id = f.account_id WHERE l.id = ${loc} AND f.kind = 'money'`,
    );
    out.set(loc, new Set(found.map((f) => f.key)));
  }
  return out;
}

function withoutKeys<T>(map: Record<string, T>, keys: Set<string> | undefined): Record<string, T> {
  if (!keys?.size) return map;
  return Object.fromEntries(Object.entries(map).filter(([k]) => !keys.has(k)));
}

/** A visible, live inbox item, or 404 whether it is absent, deleted or in a location the actor cannot see. */
export async function findItem(tx: Tx, id: string): Promise<Row> {
  const [row] = await tx.select().from(inboxItems).where(eq(inboxItems.id, id));
  if (!row || row.deletedAt) throw new NotFoundError("inbox item");
  return row;
}

export type InboxQuery = { locationId?: string | undefined; kind?: string | undefined; limit: number; cursor?: string | undefined };

export async function listInbox(tx: Tx, q: InboxQuery): Promise<{ items: InboxItem[]; next_cursor: string | null }> {
  // RLS limits rows to the actor's visible locations; open items only.
  const where: SQL[] = [eq(inboxItems.status, "open"), sql`${inboxItems.deletedAt} IS NULL`];
  if (q.locationId) where.push(eq(inboxItems.locationId, q.locationId));
  if (q.kind) where.push(eq(inboxItems.kind, q.kind as Row["kind"]));
  const page = await pageOfRows(tx, inboxItems, inboxItems.createdAt, where, q);
  return { items: await inboxOut(tx, page.rows), next_cursor: page.next_cursor };
}
