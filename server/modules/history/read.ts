/**
 * History entries in the spec's shape. Values never leave the server raw: the diff says which
 * fields changed, summary lines show old and new values only for fields the reader may see.
 */
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { HistoryEntry } from "../../../shared/history.js";
import { locationAccess } from "../../access/location.js";
import { rows, uuidArray, type Tx } from "../../db/client.js";
import { historyEntries, users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { afterTimeId, exactTime, pageFrom } from "../../db/paging.js";
import { liveCalls, storedCallOut, type LiveCalls } from "../extractions/calls.js";
import { eventsStillCurrent } from "./current.js";

type Event = typeof historyEntries.$inferSelect;

const SUMMARIES: Record<string, (p: Record<string, string>) => string> = {
  "thing.created": (p) => `Added ${p.name || "a thing"}`,
  "thing.updated": (p) => `Changed ${p.name || "a thing"}`,
  "thing.moved": (p) => `Moved ${p.name || "a thing"} from ${p.from || "?"} to ${p.to || "?"}`,
  "thing.deleted": (p) => `Deleted ${p.name || "a thing"}`,
  "thing.restored": (p) => `Restored ${p.name || "a thing"}`,
  "thing.photo_added": (p) => `Added a photo of ${p.name || "a thing"}`,
  "thing.photo_removed": (p) => `Removed a photo of ${p.name || "a thing"}`,
  "thing.cover_chosen": (p) => `Chose the cover photo of ${p.name || "a thing"}`,
  "place.created": (p) => `Added place ${p.name}`,
  "place.updated": (p) => `Changed place ${p.name}`,
  "location.created": (p) => `Created location ${p.name}`,
  "location.updated": (p) => `Changed location ${p.name}`,
  "location.deleted": (p) => `Moved location ${p.name} to the trash`,
  "location.restored": (p) => `Restored location ${p.name} from the trash`,
  "location.transferred": (p) => `${p.from || "The owner"} handed location ${p.name} over to ${p.to || "another member"}`,
  "member.role_changed": (p) => `${p.name}'s role changed from ${p.from} to ${p.to}`,
  "member.removed": (p) => `${p.name} was removed`,
  "member.left": (p) => `${p.name} left`,
  "member.joined": (p) => `${p.name} joined as ${p.role}`,
  "history.undone": (p) => `Undid a change to ${p.name || "a thing"}`,
  "thing.accepted": (p) => `Accepted ${p.name || "a captured thing"} from the inbox`,
  "thing.merged": (p) => `Merged ${p.mergedFromName || "a captured thing"} into ${p.name || "this thing"}`,
  "thing.merged_away": (p) => `Merged ${p.name || "a captured thing"} into ${p.into || "another thing"}`,
  "secret.revealed": (p) => `Revealed ${p.field || "a secret field"} of ${p.name || "a thing"}`,
  "thing.field_converted": (p) => `Converted ${p.field || "a field"} of ${p.name || "a thing"}`,
  "type_field.converted": (p) => `Converted the field ${p.field || "?"}`,
  "meter.created": (p) => `Added the meter ${p.name || "?"}`,
  "meter.updated": (p) => `Changed the meter ${p.name || "?"}`,
  "meter.deleted": (p) => `Deleted the meter ${p.name || "?"}`,
  "thing.moved_location": (p) => `Moved ${p.name || "a thing"} from ${p.from || "?"} to ${p.to || "?"} (box ${p.box || "?"} of a move)`,
  "move.created": (p) => `Started the move ${p.name || "?"}`,
  "move.updated": (p) => `Changed the move ${p.name || "?"}`,
  "code.claimed": (p) => `${p.name || "This"} now answers to the label ${p.code || "?"}`,
  "thing.extracted": (p) => `Filled ${p.fields || "fields"} of ${p.name || "a thing"} from its photos`,
  "thing.suggestion_accepted": (p) => `Used the suggested ${p.field || "value"}${p.value ? ` “${p.value}”` : ""} for ${p.name || "a thing"}`,
  "thing.field_confirmed": (p) => `Confirmed the ${p.field || "value"} read from a photo of ${p.name || "a thing"}`,
  "code.released": (p) => `${p.name || "This"} gave up a label and answers to ${p.code || "its other code"}`,
  "thing.split": (p) => `Split ${p.quantity || "some"} off ${p.name || "a thing"} for a loan to ${p.person || "someone"}`,
  "thing.split_from": (p) => `Split from ${p.name || "a thing"}: ${p.quantity || "some"} for a loan to ${p.person || "someone"}`,
  "thing.joined": (p) => `${p.quantity || "Some"} of ${p.name || "a thing"} came back from a loan and joined it again`,
  "thing.joined_into": (p) => `Returned and joined back into ${p.into || "the thing it was split from"}`,
  "loan.lent": (p) => `Lent ${p.quantity || ""} ${p.name || "a thing"} to ${p.person || "someone"}`.replace("  ", " "),
  "loan.borrowed": (p) => `Borrowed ${p.quantity || ""} ${p.name || "a thing"} from ${p.person || "someone"}`.replace("  ", " "),
  "loan.returned": (p) => `${p.name || "A thing"} came back from a loan (${p.person || "someone"})`,
  "loan.updated": (p) => `Changed the loan to ${p.person || "someone"}`,
};

export function summaryText(key: string, params: Record<string, string>): string {
  return SUMMARIES[key]?.(params) ?? key;
}

/** The summary keys written here in English; the app writes each in the reader's language too. */
export const SUMMARY_KEYS: readonly string[] = Object.keys(SUMMARIES);

const show = (v: unknown): string => {
  if (v === null || v === undefined) return "—";
  if (typeof v === "string") return v;
  return JSON.stringify(v);
};

export interface Reader {
  seesMoney: boolean;
  /** Whose `paidBy.mine` an AI call shows (null: nobody's). */
  userId?: string | null;
}

/**
 * `current` holds the events whose change still stands (current.ts): another event's window shows
 * as closed, since undoing it would be refused.
 */
export function historyOut(
  e: Event,
  actorName: string | null,
  reader: Reader,
  now: Date,
  current: ReadonlySet<string>,
  calls: LiveCalls = new Map(),
): HistoryEntry {
  const diff: HistoryEntry["diff"] = {};
  const lines: NonNullable<HistoryEntry["summaryLines"]> = [];
  for (const [field, d] of Object.entries(e.diff)) {
    const hidden = d.class === "secret" || (d.class === "money" && !reader.seesMoney);
    diff[field] = { class: d.class, changed: d.changed, hidden };
    if (!d.changed) continue;
    if (hidden) lines.push({ key: "history.field_changed_hidden", params: { field }, text: `${field} changed` });
    else {
      const from = show(e.before[field]);
      const to = show(e.after[field]);
      lines.push({ key: "history.field_changed", params: { field, from, to }, text: `${field}: ${from} → ${to}` });
    }
  }
  const undoable = e.undoableUntil && !e.undoneAt && e.undoableUntil.getTime() > now.getTime() && current.has(e.id);
  return {
    id: e.id,
    at: e.at.toISOString(),
    action: e.action,
    actor: { type: e.actorType, id: e.actorUserId, displayName: actorName ?? (e.actorType === "system" ? "System" : "Former member") },
    entity: { type: e.entityType, id: e.entityId, name: e.entityName },
    diff,
    undoable_until: undoable ? e.undoableUntil!.toISOString() : null,
    summary: summaryText(e.summaryKey, e.summaryParams),
    summaryKey: e.summaryKey,
    summaryParams: e.summaryParams,
    summaryLines: lines,
    ...(e.movedInFromElsewhere !== null ? { movedInFromElsewhere: e.movedInFromElsewhere } : {}),
    ...(e.aiCall ? { aiCall: storedCallOut(e.aiCall, reader.userId ?? null, calls)! } : {}),
    ...(e.action === "thing.merged" && e.summaryParams.mergedFromId
      ? { mergedFrom: { id: e.summaryParams.mergedFromId, name: e.summaryParams.mergedFromName || null } }
      : {}),
  };
}

const ACTIONS: Record<string, string[]> = {
  created: ["thing.created"],
  updated: ["thing.updated", "thing.photo_added", "thing.photo_removed", "thing.cover_chosen"],
  moved: ["thing.moved"],
  deleted: ["thing.deleted"],
  restored: ["thing.restored"],
};

export async function entityHistory(
  tx: Tx,
  entity: { type: string; id: string },
  q: { limit: number; cursor?: string | undefined; kind?: string | undefined },
  reader: Reader,
): Promise<{ items: HistoryEntry[]; next_cursor: string | null }> {
  const where: SQL[] = [eq(historyEntries.entityType, entity.type), sql`${historyEntries.entityId} = ANY(${await historyOf(tx, entity)})`];
  // A merged-away thing's own "merged into this one" line repeats the merge entry here: left out.
  where.push(sql`NOT (${historyEntries.entityId} <> ${entity.id}::uuid AND ${historyEntries.summaryKey} = 'thing.merged_away')`);
  if (q.kind) where.push(inArray(historyEntries.action, ACTIONS[q.kind] ?? []));
  if (q.cursor) where.push(afterTimeId(q.cursor, historyEntries.at, historyEntries.id, "desc"));
  const found = await tx
    .select({ e: historyEntries, name: users.name, key: exactTime(historyEntries.at) })
    .from(historyEntries)
    .leftJoin(users, eq(users.id, historyEntries.actorUserId))
    .where(and(...where))
    .orderBy(desc(historyEntries.at), desc(historyEntries.id))
    .limit(q.limit + 1);
  const page = pageFrom(found, q.limit, (r) => [r.key, r.e.id]);
  const now = new Date();
  const calls = await liveCalls(
    tx,
    page.rows.map((r) => r.e.aiCall),
  );
  const current = await eventsStillCurrent(
    tx,
    page.rows.map((r) => r.e),
    now,
  );
  return { items: page.rows.map((r) => historyOut(r.e, r.name, reader, now, current, calls)), next_cursor: page.next_cursor };
}

/**
 * The entities whose history is this one's: a thing keeps the history of every thing merged into
 * it (and of those merged into them), so a merge loses no entry; anything else only its own.
 */
async function historyOf(tx: Tx, entity: { type: string; id: string }): Promise<SQL> {
  if (entity.type !== "thing") return uuidArray([entity.id]);
  const found = await rows<{ id: string }>(
    tx,
    sql`
    WITH RECURSIVE merged(id) AS (
      SELECT ${entity.id}::uuid
      UNION
      SELECT (h.summary_params->>'mergedFromId')::uuid
      FROM history_entries h JOIN merged m ON h.entity_type = 'thing' AND h.entity_id = m.id
      WHERE h.action = 'thing.merged' AND h.summary_params ? 'mergedFromId'
    )
    SELECT id FROM merged`,
  );
  return uuidArray(found.map((r) => r.id));
}

/** The location of a visible history event, or 404. */
export async function eventLocation(tx: Tx, eventId: string): Promise<string> {
  const [e] = await tx.select({ locationId: historyEntries.locationId }).from(historyEntries).where(eq(historyEntries.id, eventId));
  if (!e) throw new NotFoundError("history event");
  return e.locationId;
}

/** One history entry as the actor sees it in its location now (the entry an undo just wrote). */
export async function historyEntry(tx: Tx, eventId: string): Promise<HistoryEntry> {
  const [row] = await tx
    .select({ e: historyEntries, name: users.name })
    .from(historyEntries)
    .leftJoin(users, eq(users.id, historyEntries.actorUserId))
    .where(eq(historyEntries.id, eventId));
  if (!row) throw new NotFoundError("history event");
  const now = new Date();
  return historyOut(row.e, row.name, await locationAccess(tx, row.e.locationId), now, await eventsStillCurrent(tx, [row.e], now));
}
