/**
 * Set-based statements for a segment of ops: its targets read and locked in one statement, its
 * rows written in one statement, whatever its size. Rows are the drizzle (camelCase) shapes. They go over as one jsonb array of positional arrays, read with
 * jsonb_array_elements and cast to each column's type: about half the bytes of keyed JSON records
 * and a third of the database's parsing time for a thousand rows. A column whose value is the same
 * in every row (the actor, the time, the action of a segment) goes over once, as a parameter.
 * Statements are named, so each connection plans a statement text once.
 */
import { getTableColumns, getTableName, type Column as DrizzleColumn, type SQL, type Table } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { type Tx, namedRows, rows, sql, uuidArray } from "../db/client.js";

/**
 * Bulk statements run as named prepared statements (each connection plans a text once). Their
 * texts follow the data (which columns a segment sets, which are equal in every row), so only
 * the first few hundred distinct ones get names: a client cannot grow the statements every
 * connection keeps without bound.
 */
const MAX_NAMED_SHAPES = 300;
const namedShapes = new Set<string>();
function runBulk<T>(tx: Tx, name: string, shape: string, statement: SQL): Promise<T[]> {
  if (namedShapes.has(shape) || (namedShapes.size < MAX_NAMED_SHAPES && namedShapes.add(shape))) return namedRows<T>(tx, name, statement);
  return rows<T>(tx, statement);
}

/**
 * `column IN (the ids)` for a segment's worth of ids, as one uuid[] parameter. Written as a
 * subquery so the planner probes the column's index once per id: with `= ANY(array)` on a table
 * under row-level security it may scan the location's whole index and test each row against
 * the array instead (15 ms rather than 2 ms for 1,000 of 20,000 things).
 */
export const idIn = (column: DrizzleColumn, ids: readonly string[]): SQL => sql`${column} IN (SELECT unnest(${uuidArray(ids)}))`;

/**
 * The rows of `table` with these ids, locked FOR UPDATE, through one primary-key probe per id (a
 * lateral join): whatever the planner thinks of the location's size, a segment costs what its
 * ids cost. Ids with no visible row are simply absent. With `keys`, only those columns (and the
 * id) are read: a thousand whole rows are a good part of a segment's bytes and parsing.
 */
export async function lockRows<T extends PgTable & { id: DrizzleColumn }, K extends keyof T["$inferSelect"] & string = keyof T["$inferSelect"] & string>(
  tx: Tx,
  table: T,
  ids: readonly string[],
  keys?: readonly K[],
): Promise<Pick<T["$inferSelect"], K | "id">[]> {
  if (!ids.length) return [];
  const all = columnsOf(table);
  const cols = keys ? all.filter((c) => c.name === "id" || (keys as readonly string[]).includes(c.key)) : all;
  const list = sql.join(
    cols.map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  const found = await runBulk<Record<string, unknown>>(
    tx,
    "lock_rows",
    `${getTableName(table)}:${cols.map((c) => c.name).join(",")}`,
    sql`SELECT l.* FROM unnest(${uuidArray(ids)}) AS u(id)
        CROSS JOIN LATERAL (SELECT ${list} FROM ${table} WHERE ${table.id} = u.id FOR UPDATE) AS l`,
  );
  // Decoded column by column as a drizzle select would, without its per-value generic checks.
  return found.map((raw) => {
    const row: Record<string, unknown> = {};
    for (const col of cols) row[col.key] = col.decode(raw[col.name]);
    return row as Pick<T["$inferSelect"], K | "id">;
  });
}

interface Column {
  key: string;
  name: string;
  /** The SQL type, e.g. `uuid`, `numeric(14, 3)`, `timestamp with time zone`. */
  type: string;
  /** The driver's value as the drizzle row holds it (a timestamp's text as a Date, ...). */
  decode(value: unknown): unknown;
}

/** The table's columns in table order; read once per table. */
const columnCache = new WeakMap<Table, Column[]>();
function columnsOf(table: Table): Column[] {
  let cols = columnCache.get(table);
  if (!cols) {
    cols = Object.entries(getTableColumns(table)).map(([key, c]) => ({
      key,
      name: c.name,
      type: c.getSQLType(),
      decode: (value: unknown) => (value === null ? null : c.mapFromDriverValue(value)),
    }));
    // Array columns of one dimension only (uuid[], text[]): see `source`.
    const array = cols.find((c) => c.type.endsWith("[][]"));
    if (array) throw new Error(`bulk writes cannot encode the array column ${getTableName(table)}.${array.name}`);
    columnCache.set(table, cols);
  }
  return cols;
}

/** The value as the JSON payload carries it: dates as ISO strings, undefined as null. */
const plain = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : (value ?? null));

/** Whether every row holds the same value for `key` (dates by time, objects by their JSON). */
function sameInEveryRow(values: Record<string, unknown>[], key: string): boolean {
  const first = values[0]![key] ?? null;
  if (first instanceof Date) {
    const t = first.getTime();
    return values.every((row) => {
      const v = row[key];
      return v instanceof Date && v.getTime() === t;
    });
  }
  if (first !== null && typeof first === "object") {
    const text = JSON.stringify(first);
    return values.every((row) => {
      const v = row[key];
      return v !== null && typeof v === "object" && JSON.stringify(v) === text;
    });
  }
  return values.every((row) => (row[key] ?? null) === first);
}

/**
 * Encodes `values` for `cols`: the columns equal in every row (`shared`, with their JSON text) and
 * a jsonb array with one positional array per row of the others (`each`; `id` always, so updates
 * can match rows).
 */
function encode(cols: Column[], values: Record<string, unknown>[]): { shared: Map<Column, string>; each: Column[]; payload: string } {
  const shared = new Map<Column, string>();
  const each: Column[] = [];
  for (const col of cols) {
    if (col.name !== "id" && sameInEveryRow(values, col.key)) shared.set(col, JSON.stringify(plain(values[0]![col.key])));
    else each.push(col);
  }
  const keys = each.map((c) => c.key);
  // One JSON.stringify over plain arrays: far cheaper than one call per value.
  const payload = JSON.stringify(values.map((row) => keys.map((k) => plain(row[k]))));
  return { shared, each, payload };
}

const isJson = (col: Column) => col.type === "jsonb" || col.type === "json";
const isArray = (col: Column) => col.type.endsWith("[]");

/** A JSON array (jsonb expression `json`) as the Postgres array column: its elements as text, cast. */
const fromJsonArray = (json: SQL, type: SQL) =>
  sql`CASE WHEN jsonb_typeof(${json}) = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(${json}))::${type} END`;

/** The column's value for a row: its shared parameter, or its place in the row's array `e`. */
function source(col: Column, shared: Map<Column, string>, each: Column[]): SQL {
  const type = sql.raw(col.type);
  const text = shared.get(col);
  if (text !== undefined) {
    const value: unknown = JSON.parse(text);
    if (isJson(col)) return value === null ? sql`NULL::${type}` : sql`${text}::${type}`;
    if (isArray(col)) return value === null ? sql`NULL::${type}` : fromJsonArray(sql`${text}::jsonb`, type);
    return sql`${value as string | number | boolean | null}::${type}`;
  }
  const i = sql.raw(String(each.indexOf(col)));
  // JSON null is SQL NULL, as for any other column.
  if (isJson(col)) return sql`nullif(e.v->${i}, 'null'::jsonb)::${type}`;
  if (isArray(col)) return fromJsonArray(sql`(e.v->${i})`, type);
  return sql`(e.v->>${i})::${type}`;
}

/**
 * Inserts the rows. The statement is sent before this returns (the promise is not lazy), so a
 * caller may prepare its next statement while this one runs; the connection queues it.
 */
/** What a bulk statement's text depends on: the table, its columns and which of them are shared. */
const shapeOf = (table: Table, cols: Column[], shared: Map<Column, string>) =>
  `${getTableName(table)}:${cols.map((c) => `${c.name}${shared.has(c) ? (isJson(c) && shared.get(c) === "null" ? "~" : "=") : ""}`).join(",")}`;

export function bulkInsert(tx: Tx, table: Table, values: Record<string, unknown>[]): Promise<void> {
  if (values.length === 0) return Promise.resolve();
  const name = sql.identifier(getTableName(table));
  const cols = columnsOf(table);
  const { shared, each, payload } = encode(cols, values);
  const targets = sql.join(
    cols.map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  const sources = sql.join(
    cols.map((c) => source(c, shared, each)),
    sql`, `,
  );
  return runBulk(
    tx,
    "bulk_insert",
    shapeOf(table, cols, shared),
    sql`INSERT INTO ${name} (${targets}) SELECT ${sources} FROM jsonb_array_elements(${payload}::jsonb) AS e(v)`,
  ).then(() => undefined);
}

/**
 * Writes rows by id, sent before this returns as bulkInsert's statement is. `only` names the
 * (camelCase) columns that changed: a 1000-row update then sends and sets those, not every
 * column. Every row must exist and be writable (the caller loaded and checked it): a row the
 * statement did not reach fails the segment rather than be reported as written.
 */
export function bulkUpdate(tx: Tx, table: Table, values: Record<string, unknown>[], only?: ReadonlySet<string>): Promise<void> {
  if (values.length === 0) return Promise.resolve();
  const name = sql.identifier(getTableName(table));
  const set = columnsOf(table).filter((c) => c.name !== "id" && (!only || only.has(c.key)));
  const id = columnsOf(table).find((c) => c.name === "id")!;
  const { shared, each, payload } = encode([id, ...set], values);
  const targets = sql.join(
    set.map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  const sources = sql.join(
    set.map((c) => source(c, shared, each)),
    sql`, `,
  );
  return runBulk<{ n: number }>(
    tx,
    "bulk_update",
    shapeOf(table, [id, ...set], shared),
    sql`WITH written AS (
          UPDATE ${name} AS t SET (${targets}) = ROW(${sources})
          FROM jsonb_array_elements(${payload}::jsonb) AS e(v)
          WHERE t.id = ${source(id, shared, each)} RETURNING 1)
        SELECT count(*)::int AS n FROM written`,
  ).then((result) => {
    const n = result[0]?.n;
    if (n !== values.length) throw new Error(`bulk update of ${getTableName(table)} wrote ${n} of ${values.length} rows`);
  });
}
