/**
 * What the wake stream reads from the change log (sync/SPEC.md SH11): which shapes' rows changed,
 * and where (location, owner account, and the user of a per-user row), between two log positions.
 * Names and places only, never a row's values. Read with the service's authority, like the open
 * shape streams' head (server/sync/shapes/query.ts); each stream then keeps only the places its
 * reader can read (wake-streams.ts).
 */
import { SHAPE_NAMES, type ShapeName } from "../../../sync/shapes.js";
import { type Db, rows, sql } from "../../db/client.js";
import { SHAPES } from "../shapes/definitions.js";

/** Changes of one shape at one place, the newest at `last`. */
export interface WakeEntry {
  shape: ShapeName;
  locationId: string | null;
  accountId: string | null;
  /** For a per-user shape (memberships), whose row it is: only that user is woken. */
  userId: string | null;
  last: number;
}

const PER_USER_FILTER = "r.user_id = app_user_id()";
const SHAPE_OF_TABLE = new Map<string, ShapeName>(SHAPE_NAMES.map((name) => [SHAPES[name].table, name]));

/**
 * A shape's own filter, applied to the logged row as the shape's log read applies it, so that a
 * wake names a shape only when its reader's request will find a message there (a woken shape that
 * finds nothing costs a request). A per-user filter cannot run without the reader: the row's user
 * is returned instead and matched per stream.
 */
function filterClause(): string {
  const parts: string[] = [];
  for (const name of SHAPE_NAMES) {
    const shape = SHAPES[name];
    if (shape.filter === "true" || shape.filter === PER_USER_FILTER) continue;
    // A filter reading the actor in another way would need matching per stream as well.
    if (/\bapp_/.test(shape.filter)) throw new Error(`shape ${name}: the wake stream cannot apply the filter ${shape.filter}`);
    const table = `"${shape.table.replace(/"/g, '""')}"`;
    parts.push(`(l.table_name <> '${shape.table}' OR EXISTS (SELECT 1 FROM jsonb_populate_record(NULL::${table}, l."row") r WHERE ${shape.filter}))`);
  }
  return parts.length ? parts.join(" AND ") : "true";
}

const FILTER = filterClause();
const PER_USER_TABLES = SHAPE_NAMES.filter((n) => SHAPES[n].filter === PER_USER_FILTER).map((n) => `'${SHAPES[n].table}'`);
const USER_EXPR = PER_USER_TABLES.length ? `CASE WHEN l.table_name IN (${PER_USER_TABLES.join(",")}) THEN l."row"->>'user_id' END` : "NULL::text";

/** The shapes changed after `after` up to `upTo`, grouped by place: a few rows per commit. */
export async function wakeEntries(db: Db, after: number, upTo: number): Promise<WakeEntry[]> {
  if (upTo <= after) return [];
  const result = await rows<{ table_name: string; location_id: string | null; account_id: string | null; user_id: string | null; last: string }>(
    db,
    sql`SELECT l.table_name, l.location_id::text AS location_id, l.account_id::text AS account_id, ${sql.raw(USER_EXPR)} AS user_id, max(l.seq)::text AS last
      FROM sync_log l
      WHERE l.seq > ${after} AND l.seq <= ${upTo} AND ${sql.raw(FILTER)}
      GROUP BY 1, 2, 3, 4`,
  );
  return result.flatMap((r) => {
    const shape = SHAPE_OF_TABLE.get(r.table_name);
    return shape ? [{ shape, locationId: r.location_id, accountId: r.account_id, userId: r.user_id, last: Number(r.last) }] : [];
  });
}

/** The log's head and compaction horizon, with the service's authority. */
export async function headAndHorizon(db: Db): Promise<{ head: number; horizon: number }> {
  const [b] = await rows<{ head: string; horizon: string }>(db, sql`SELECT sync_log_head()::text AS head, sync_log_horizon()::text AS horizon`);
  return { head: Number(b?.head ?? 0), horizon: Number(b?.horizon ?? 0) };
}
