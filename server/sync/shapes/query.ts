/**
 * Reads a shape's snapshot and its changes from the log, as Electric change messages built in
 * SQL (values in Postgres text form, sync/SPEC.md SH5) so that no row becomes a JS object.
 */
import { type Db, type Tx, rows, sql } from "../../db/client.js";
import type { ShapeDef } from "./definitions.js";

/** Most log entries one response carries; the client asks again from the returned offset. */
export const MAX_LOG_ROWS = 5000;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The `value` object: every column as text. For `things` and `places`, money custom fields (of the
 * account's types and place kinds) are removed where the actor's role may not see money (SH2).
 */
function valueExpr(shape: ShapeDef, moneyHidden: readonly string[]): string {
  const parts = shape.columns.map((c) => {
    let expr = `r.${ident(c.name)}::text`;
    if ((shape.table === "things" || shape.table === "places") && c.name === "fields" && moneyHidden.length) {
      const hidden = `'{${moneyHidden.join(",")}}'::uuid[]`;
      expr = `CASE WHEN r.location_id = ANY(${hidden}) THEN (r.fields - coalesce((SELECT array_agg(f.key) FROM type_fields f JOIN locations l ON l.account_id = f.account_id WHERE l.id = r.location_id AND f.kind = 'money'), '{}'::text[]))::text ELSE r.fields::text END`;
    }
    // What the AI read for a money field is as much money as the field's value (shared/extractions.ts).
    if (shape.table === "things" && c.name === "field_status" && moneyHidden.length) {
      const hidden = `'{${moneyHidden.join(",")}}'::uuid[]`;
      expr = `CASE WHEN r.location_id = ANY(${hidden}) THEN (r.field_status - coalesce((SELECT array_agg('fields.' || f.key) FROM type_fields f JOIN locations l ON l.account_id = f.account_id WHERE l.id = r.location_id AND f.kind = 'money'), '{}'::text[]))::text ELSE r.field_status::text END`;
    }
    // A template is the account's: its money fields go where the actor hides money in any location of that account.
    if (shape.table === "templates" && c.name === "payload" && moneyHidden.length) expr = templatePayloadExpr(moneyHidden);
    if (shape.table === "inbox_items" && c.name === "payload" && moneyHidden.length) expr = receiptPayloadExpr(moneyHidden);
    return `'${c.name}', ${expr}`;
  });
  return `json_build_object(${parts.join(", ")})`;
}

function templatePayloadExpr(moneyHidden: readonly string[]): string {
  const hidden = `'{${moneyHidden.join(",")}}'::uuid[]`;
  const money = `coalesce((SELECT array_agg(f.key) FROM type_fields f WHERE f.account_id = r.account_id AND f.kind = 'money'), '{}'::text[])`;
  return `CASE WHEN r.payload ? 'fields' AND EXISTS (SELECT 1 FROM locations l WHERE l.account_id = r.account_id AND l.id = ANY(${hidden}))
    THEN jsonb_set(r.payload, '{fields}', (r.payload->'fields') - ${money})::text ELSE r.payload::text END`;
}

/** A receipt item's amounts (total, tax, each line's prices) go where the actor hides money (server/modules/receipts/read.ts). */
function receiptPayloadExpr(moneyHidden: readonly string[]): string {
  const hidden = `'{${moneyHidden.join(",")}}'::uuid[]`;
  const lines = `coalesce((SELECT jsonb_agg(x.l - '{unitPrice,lineTotal}'::text[] ORDER BY x.n) FROM jsonb_array_elements(r.payload->'receipt'->'lines') WITH ORDINALITY AS x(l, n)), '[]'::jsonb)`;
  return `CASE WHEN r.location_id = ANY(${hidden}) AND r.payload ? 'receipt'
    THEN jsonb_set(r.payload, '{receipt}', ((r.payload->'receipt') - '{total,tax}'::text[]) || jsonb_build_object('moneyHidden', true, 'lines', ${lines}))::text
    ELSE r.payload::text END`;
}

const keyExpr = (shape: ShapeDef) => `'"public"."${shape.table}"/"' || r.id::text || '"'`;
const scopeExpr = (shape: ShapeDef) =>
  shape.locationColumn === "account_id"
    ? "r.account_id = ANY ((SELECT app_readable_accounts())::uuid[])"
    : `r.${shape.locationColumn} = ANY (app_readable_locations())`;

export interface LogBounds {
  /** The newest position of the change log. */
  head: number;
  /** Offsets older than this may miss a removed tombstone: they must refetch (sync/SPEC.md SH10). */
  horizon: number;
}

/** The log's head and compaction horizon, in one statement. */
export async function logBounds(tx: Tx): Promise<LogBounds> {
  const [b] = await rows<{ head: string; horizon: string }>(tx, sql`SELECT sync_log_head()::text AS head, sync_log_horizon()::text AS horizon`);
  return { head: Number(b?.head ?? 0), horizon: Number(b?.horizon ?? 0) };
}

/** The session settings under which values come out in the text form of SH5 (UTC, ISO dates, exact floats). */
export async function useTextForms(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, DMY', true), set_config('extra_float_digits', '1', true)`);
}

/** Rows in the first page of a snapshot: small, so the first screen fills fast (sync/SPEC.md SH9). */
export const FIRST_PAGE_ROWS = 1000;
/** Rows in each later page (about 4 MB of things). */
export const PAGE_ROWS = 10_000;

export interface SnapshotPage {
  /** A JSON array of insert messages, in id order. */
  body: string;
  rows: number;
  /** Id of the last row (null when the page is empty). */
  lastId: string | null;
}

/**
 * One page of the shape's rows as they are now: those with an id after `afterId` (all when
 * null), at most `limit`, in id order, as one JSON array of insert messages. A page may show
 * commits newer than its snapshot's head; the log read after the last page repeats them (full
 * rows, so the client converges).
 */
export async function readSnapshotPage(tx: Tx, shape: ShapeDef, moneyHidden: readonly string[], afterId: string | null, limit: number): Promise<SnapshotPage> {
  const statement = sql`
    WITH page AS (
      SELECT r.id, json_build_object(
        'key', ${sql.raw(keyExpr(shape))},
        'value', ${sql.raw(valueExpr(shape, moneyHidden))},
        'headers', json_build_object('operation', 'insert', 'relation', json_build_array('public', ${shape.table}::text))
      ) AS msg
      FROM ${sql.identifier(shape.table)} r
      WHERE ${sql.raw(scopeExpr(shape))} AND (${sql.raw(shape.filter)}) AND (${sql.raw(shape.live)})
        ${afterId === null ? sql`` : sql`AND r.id > ${afterId}::uuid`}
      ORDER BY r.id
      LIMIT ${limit}
    )
    SELECT coalesce((SELECT json_agg(msg ORDER BY id) FROM page), '[]')::text AS body,
           (SELECT count(*) FROM page)::int AS rows,
           (SELECT id::text FROM page ORDER BY id DESC LIMIT 1) AS last_id`;
  const [result] = await rows<{ body: string; rows: number; last_id: string | null }>(tx, statement);
  return { body: result!.body, rows: Number(result!.rows), lastId: result!.last_id };
}

export interface LogMessages {
  messages: string[];
  /** Seq of the last entry read (or `after` when none). */
  last: number;
  /** True when the read stopped at MAX_LOG_ROWS and more may follow. */
  more: boolean;
  /**
   * The compaction horizon as the same statement saw the log: a compaction that removed a
   * tombstone after `after` shows here, even when it committed after the bounds were read.
   */
  horizon: number;
}

/**
 * Changes of the shape after log position `after`, oldest first; with `upTo`, only those up to
 * that position (and, when all of them fit, `last` is `upTo`).
 */
export async function readLog(tx: Tx, shape: ShapeDef, after: number, moneyHidden: readonly string[], upTo?: number): Promise<LogMessages> {
  // The horizon joins the entries in one statement (one snapshot), so the caller can tell
  // whether a tombstone it needed was removed meanwhile; it comes back even with no entries.
  const statement = sql`
    SELECT b.horizon::text AS horizon, x.seq::text AS seq, x.msg
    FROM (SELECT sync_log_horizon() AS horizon) b
    LEFT JOIN (SELECT l.seq, CASE WHEN (${sql.raw(shape.filter)}) THEN json_build_object(
      'key', ${sql.raw(keyExpr(shape))},
      'value', CASE WHEN l.op <> 'delete' AND (${sql.raw(shape.live)}) THEN ${sql.raw(valueExpr(shape, moneyHidden))}
                    ELSE json_build_object('id', r.id::text) END,
      'headers', json_build_object(
        'operation', CASE WHEN l.op = 'delete' OR NOT (${sql.raw(shape.live)}) THEN 'delete' WHEN l.op = 'insert' THEN 'insert' ELSE 'update' END,
        'relation', json_build_array('public', ${shape.table}::text),
        'txids', json_build_array(l.txid::bigint),
        'lsn', l.seq::text,
        'op_position', 0)
    )::text END AS msg
    FROM sync_log_since(${after}, ${shape.table}, ${MAX_LOG_ROWS}) l
    CROSS JOIN LATERAL jsonb_populate_record(NULL::${sql.identifier(shape.table)}, l."row") r
    ${upTo === undefined ? sql`` : sql`WHERE l.seq <= ${upTo}`}) x ON true
    ORDER BY x.seq`;
  const result = await rows<{ horizon: string; seq: string | null; msg: string | null }>(tx, statement);
  // Entries the filter skips (another user's membership) still advance the position.
  const found = result.filter((f) => f.seq !== null);
  const lastRow = found[found.length - 1];
  const more = found.length >= MAX_LOG_ROWS;
  return {
    messages: found.flatMap((f) => (f.msg ? [f.msg] : [])),
    last: !more && upTo !== undefined ? Math.max(upTo, after) : lastRow ? Number(lastRow.seq) : after,
    more,
    horizon: Number(result[0]?.horizon ?? 0),
  };
}

/**
 * With the service's authority, for the open SSE streams (live-streams.ts): the log head, and the
 * newest position after `after` of an entry that may change someone's scope (null when none):
 * memberships, and locations (money and two-factor settings, scope_version), whose rows decide a
 * shape scope (SH4).
 */
export async function headAndScopeChange(db: Db, after: number): Promise<{ head: number; scopeChange: number | null }> {
  const [r] = await rows<{ head: string; scope_change: string | null }>(
    db,
    sql`SELECT h.head::text AS head,
      (SELECT max(l.seq) FROM sync_log l WHERE l.seq > ${after} AND l.seq <= h.head AND l.table_name IN ('memberships', 'locations'))::text AS scope_change
      FROM (SELECT sync_log_head() AS head) h`,
  );
  return { head: Number(r?.head ?? 0), scopeChange: r?.scope_change == null ? null : Number(r.scope_change) };
}
