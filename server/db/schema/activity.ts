/** History entries, inbox items and the change log that feeds shape streams. */
import { sql } from "drizzle-orm";
import { bigint, bigserial, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { HISTORY_ACTOR_TYPES } from "../../../shared/history.js";
import { INBOX_KINDS, INBOX_STATUSES } from "../../../shared/inbox.js";
import { users } from "./auth.js";
import { idColumn, syncedColumns, ts } from "./columns.js";
import { locations } from "./locations.js";

const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * One entry per applied command. `before`/`after` hold the changed fields' values so that the
 * event can be undone; they never leave the server (the API shows `diff` and summary lines).
 */
export const historyEntries = pgTable(
  "history_entries",
  {
    id: idColumn(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id),
    entityType: text("entity_type").notNull(),
    entityId: uuid("entity_id").notNull(),
    /** Entity name at the time of the event, for summaries of deleted things. */
    entityName: text("entity_name"),
    action: text("action").notNull(),
    actorType: text("actor_type", { enum: HISTORY_ACTOR_TYPES }).notNull(),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorTokenId: uuid("actor_token_id"),
    /** The device whose pushed op made the change (null for REST, MCP and jobs): sync/SPEC.md VE8. */
    clientId: text("client_id"),
    at: ts("at").notNull().defaultNow(),
    diff: jsonb("diff").$type<Record<string, { class: string; changed: boolean; hidden: boolean }>>().notNull(),
    before: jsonb("before").$type<Record<string, unknown>>().notNull().default({}),
    after: jsonb("after").$type<Record<string, unknown>>().notNull().default({}),
    summaryKey: text("summary_key").notNull(),
    summaryParams: jsonb("summary_params").$type<Record<string, string>>().notNull().default({}),
    rowVersionAfter: integer("row_version_after").notNull(),
    undoableUntil: ts("undoable_until"),
    undoneAt: ts("undone_at"),
    undoneByEventId: uuid("undone_by_event_id"),
    undoOfEventId: uuid("undo_of_event_id"),
    movedInFromElsewhere: boolean("moved_in_from_elsewhere"),
    aiCall: jsonb("ai_call"),
  },
  (t) => [index("history_entity_idx").on(t.entityType, t.entityId, t.at.desc(), t.id.desc()), index("history_location_idx").on(t.locationId, t.at)],
);

export const inboxItems = pgTable(
  "inbox_items",
  {
    id: idColumn(),
    locationId: uuid("location_id")
      .notNull()
      .references(() => locations.id),
    kind: text("kind", { enum: INBOX_KINDS }).notNull(),
    status: text("status", { enum: INBOX_STATUSES }).notNull().default("open"),
    thingId: uuid("thing_id"),
    /** Items captured together share a batch (the spec's `batch` object). */
    batchId: uuid("batch_id").notNull(),
    capturedAt: ts("captured_at").notNull().defaultNow(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    /** Kind-specific part (`syncDrop`, `reading`, `claim`, ...), in the spec's shape. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    undoEventId: uuid("undo_event_id"),
    resolvedAt: ts("resolved_at"),
    resolvedBy: uuid("resolved_by").references(() => users.id, { onDelete: "set null" }),
    ...syncedColumns(),
  },
  (t) => [
    index("inbox_location_status_idx").on(t.locationId, t.status, t.createdAt),
    index("inbox_duplicate_thing_idx")
      .on(t.thingId)
      .where(sql`${t.kind} = 'duplicate'`),
  ],
);

/**
 * Change log written by triggers on every synced table (migrations/0015_sync_log_statement_triggers.sql)
 * as the writing transaction commits: nothing that changes a synced table can bypass the shapes.
 */
export const syncLog = pgTable(
  "sync_log",
  {
    seq: bigserial("seq", { mode: "number" }).primaryKey(),
    tableName: text("table_name").notNull(),
    op: text("op").notNull(),
    rowId: uuid("row_id").notNull(),
    locationId: uuid("location_id"),
    /** Set instead of location_id for registry rows, which belong to an owner account. */
    accountId: uuid("account_id"),
    row: jsonb("row").notNull(),
    txid: xid8("txid").notNull(),
    at: ts("at")
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    index("sync_log_location_seq_idx").on(t.locationId, t.seq),
    index("sync_log_row_seq_idx").on(t.rowId, t.seq),
    index("sync_log_delete_seq_idx")
      .on(t.seq)
      .where(sql`${t.op} = 'delete'`),
  ],
);

/**
 * How far the change log is compacted (migrations/0035_sync_log_compaction.sql, sync/SPEC.md SH10):
 * one row. `horizon` is the newest tombstone seq removed; an older offset must refetch (SH7).
 */
export const syncLogCompaction = pgTable("sync_log_compaction", {
  id: boolean("id").primaryKey().default(true),
  compactedThrough: bigint("compacted_through", { mode: "number" }).notNull().default(0),
  horizon: bigint("horizon", { mode: "number" }).notNull().default(0),
  compactedAt: ts("compacted_at"),
});

/**
 * Pushed ops already seen, keyed by the device-made op id: recorded in the transaction that
 * applies (or drops) the op, so a replayed batch answers `duplicate` with the stored result.
 */
export const syncOps = pgTable(
  "sync_ops",
  {
    opId: uuid("op_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    name: text("name").notNull(),
    locationId: uuid("location_id"),
    result: jsonb("result").$type<Record<string, unknown>>().notNull(),
    at: ts("at").notNull().defaultNow(),
  },
  // Keyed per user: another account reusing an op id can neither see nor block this one.
  (t) => [primaryKey({ columns: [t.userId, t.opId] }), index("sync_ops_user_at_idx").on(t.userId, t.at)],
);
