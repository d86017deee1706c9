/**
 * A snapshot of the database's state, to prove that a refused request wrote nothing.
 */
import { rows, sql, type Db } from "../../../server/db/client.js";

export type Snapshot = Record<string, string | number | null>;

/**
 * Tables whose rows change on refused requests by design: the rate limiters count failures.
 * Everything else in the public schema is in the snapshot, so a new table is watched by default.
 */
const LIMIT_TABLES = new Set(["rate_limits", "auth_rate_limits"]);
/**
 * Queues a background job drains whenever it runs: `push_pending` is filled by a trigger on
 * inbox_items (which the snapshot covers) and emptied by the push dispatcher between any two
 * snapshots, so its state says nothing about what a request wrote.
 */
const BACKGROUND_TABLES = new Set(["push_pending"]);
/**
 * Columns a request writes whatever its answer: a session's last sighting (server/auth/touch-session.ts)
 * and its re-authentication stamp, set once the password is proven even when the change that came
 * with it is then refused (server/auth/reauth.ts).
 */
const TOUCHED_COLUMNS: Record<string, string[]> = { auth_sessions: ["last_seen_at", "updated_at", "reauthenticated_at"] };

interface TableInfo {
  name: string;
  columns: string[];
}

async function publicTables(db: Db): Promise<TableInfo[]> {
  const found = await rows<{ table_name: string; column_name: string }>(
    db,
    sql`SELECT c.table_name, c.column_name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name NOT LIKE '\\_\\_%'
        ORDER BY c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const r of found) (byTable.get(r.table_name) ?? byTable.set(r.table_name, []).get(r.table_name)!).push(r.column_name);
  return [...byTable].map(([name, columns]) => ({ name, columns })).filter((t) => !LIMIT_TABLES.has(t.name) && !BACKGROUND_TABLES.has(t.name));
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * The state of every table in one query: row count, sum of row_version and latest updated_at where
 * the table has them, the head of sync_log, and for tables with neither (tokens, grants, sessions,
 * invites, ...) a hash of every row, so a revocation or a changed secret shows too.
 */
export async function snapshotter(db: Db): Promise<() => Promise<Snapshot>> {
  const tables = await publicTables(db);
  const parts: string[] = [];
  for (const t of tables) {
    const T = ident(t.name);
    parts.push(`'${t.name}.count', (SELECT count(*) FROM ${T})`);
    const versioned = t.columns.includes("row_version") || t.columns.includes("updated_at");
    if (t.columns.includes("row_version")) parts.push(`'${t.name}.row_version', (SELECT sum(row_version) FROM ${T})`);
    if (t.columns.includes("updated_at") && !TOUCHED_COLUMNS[t.name]?.includes("updated_at"))
      parts.push(`'${t.name}.updated_at', (SELECT max(updated_at)::text FROM ${T})`);
    if (t.name === "sync_log") parts.push(`'sync_log.head', (SELECT max(seq) FROM sync_log)`);
    else if (!versioned || TOUCHED_COLUMNS[t.name]) {
      const cols = t.columns.filter((c) => !TOUCHED_COLUMNS[t.name]?.includes(c)).map(ident);
      parts.push(`'${t.name}.rows', (SELECT md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) FROM (SELECT ${cols.join(", ")} FROM ${T}) r)`);
    }
  }
  // json_build_object takes at most 100 arguments: one object per chunk of 50 pairs.
  const chunks: string[] = [];
  for (let i = 0; i < parts.length; i += 50) chunks.push(`json_build_object(${parts.slice(i, i + 50).join(", ")})`);
  const query = sql.raw(`SELECT ${chunks.map((c, i) => `${c} AS s${i}`).join(", ")}`);
  // Every write takes a transaction id. While none was handed out since the last snapshot (and
  // none is in progress), nothing can have changed: the last snapshot stands, at the cost of one
  // tiny query instead of reading every table.
  const xids = sql`SELECT pg_snapshot_xmin(s)::text AS xmin, pg_snapshot_xmax(s)::text AS xmax FROM pg_current_snapshot() s`;
  let last: { xmax: string; snapshot: Snapshot } | undefined;
  return async () => {
    const [x] = await rows<{ xmin: string; xmax: string }>(db, xids);
    if (last && x!.xmin === x!.xmax && last.xmax === x!.xmax) return last.snapshot;
    const [row] = await rows<Record<string, Snapshot>>(db, query);
    const snapshot = Object.assign({}, ...Object.values(row!)) as Snapshot;
    last = x!.xmin === x!.xmax ? { xmax: x!.xmax, snapshot } : undefined;
    return snapshot;
  };
}

/**
 * Every row that belongs to the given locations or users (by location_id, user_id or the row's own
 * id), hashed per table: "changed nothing of A's" is a comparison of two of these.
 */
export async function scopedSnapshotter(db: Db, scope: { locationIds: string[]; userIds: string[] }): Promise<() => Promise<Snapshot>> {
  const tables = await publicTables(db);
  const locs = `ARRAY[${scope.locationIds.map((id) => `'${id}'`).join(",")}]::uuid[]`;
  const users = `ARRAY[${scope.userIds.map((id) => `'${id}'`).join(",")}]::uuid[]`;
  const parts: string[] = [];
  for (const t of tables) {
    const where: string[] = [];
    // A pushed op's record is its pusher's, whichever location the op named.
    if (t.columns.includes("location_id") && !USER_RECORDS.has(t.name)) where.push(`location_id = ANY(${locs})`);
    if (t.columns.includes("user_id")) where.push(`user_id = ANY(${users})`);
    // Registries belong to the locations' owner accounts.
    if (REGISTRY_TABLES.has(t.name)) where.push(`account_id IN (SELECT account_id FROM locations WHERE id = ANY(${locs}))`);
    if (t.name === "locations") where.push(`id = ANY(${locs})`);
    if (t.name === "users") where.push(`id = ANY(${users})`);
    if (!where.length) continue;
    const cols = t.columns.filter((c) => !TOUCHED_COLUMNS[t.name]?.includes(c)).map(ident);
    parts.push(
      `'${t.name}', (SELECT count(*) || ':' || md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) FROM (SELECT ${cols.join(", ")} FROM ${ident(t.name)} WHERE ${where.join(" OR ")}) r)`,
    );
  }
  const chunks: string[] = [];
  for (let i = 0; i < parts.length; i += 50) chunks.push(`json_build_object(${parts.slice(i, i + 50).join(", ")})`);
  const query = sql.raw(`SELECT ${chunks.map((c, i) => `${c} AS s${i}`).join(", ")}`);
  return async () => {
    const [row] = await rows<Record<string, Snapshot>>(db, query);
    return Object.assign({}, ...Object.values(row!)) as Snapshot;
  };
}

/** Tables of the owner account's registries (rows by account_id). */
const REGISTRY_TABLES = new Set(["place_kinds", "types", "type_fields", "brands", "tags", "templates"]);

/** Tables whose rows belong to the user who made them, whatever location they name. */
const USER_RECORDS = new Set(["sync_ops"]);

/** The metrics that differ between two snapshots. */
export function changedMetrics(a: Snapshot, b: Snapshot): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((k) => a[k] !== b[k]).sort();
}

/** How each metric moved: counts by how many rows, anything else as "changed". */
export function delta(a: Snapshot, b: Snapshot): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const k of changedMetrics(a, b)) out[k] = k.endsWith(".count") ? Number(b[k]) - Number(a[k]) : "changed";
  return out;
}
