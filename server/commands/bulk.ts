/**
 * Set-based writes: a whole segment of rows in one statement, whatever its size, through
 * json_populate_recordset over the table's own row type. Rows are the drizzle (camelCase) shapes.
 * A column whose value is the same in every row (the actor, the time, the action of a batch) goes
 * over once, not once per row: less JSON to build, send and parse.
 */
import { getTableColumns, getTableName, type SQL, type Table } from "drizzle-orm";
import { type Tx, rows, sql } from "../db/client.js";

interface Column {
  key: string;
  name: string;
}

/** The table's columns in table order (camelCase key and column name); read once per table. */
const columnCache = new WeakMap<Table, Column[]>();
function columnsOf(table: Table): Column[] {
  let cols = columnCache.get(table);
  if (!cols) {
    cols = Object.entries(getTableColumns(table)).map(([key, c]) => ({ key, name: c.name }));
    columnCache.set(table, cols);
  }
  return cols;
}

const dbValue = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));

/** A value that can be compared with ===: dates by their time; objects (jsonb) never are. */
function scalar(value: unknown): { ok: boolean; v: unknown } {
  if (value === undefined || value === null) return { ok: true, v: null };
  if (value instanceof Date) return { ok: true, v: value.getTime() };
  return { ok: typeof value !== "object", v: value };
}

/**
 * The rows as two JSON parameters keyed by column name: `shared`, one record of the columns equal
 * in every row, and `each`, one record per row of the others (`id` always, so updates can match).
 */
function encode(cols: Column[], values: Record<string, unknown>[]): { shared: Column[]; each: Column[]; sharedJson: string; eachJson: string } {
  const shared: Column[] = [];
  const each: Column[] = [];
  for (const col of cols) {
    const first = scalar(values[0]![col.key]);
    let same = first.ok && col.name !== "id";
    for (let i = 1; same && i < values.length; i++) {
      const s = scalar(values[i]![col.key]);
      same = s.ok && s.v === first.v;
    }
    (same ? shared : each).push(col);
  }
  const one: Record<string, unknown> = {};
  for (const col of shared) one[col.name] = dbValue(values[0]![col.key]);
  const eachJson = JSON.stringify(
    values.map((row) => {
      const out: Record<string, unknown> = {};
      for (const col of each) out[col.name] = dbValue(row[col.key]);
      return out;
    }),
  );
  return { shared, each, sharedJson: JSON.stringify(one), eachJson };
}

/** `c.col` or `r.col`, whichever of the two records carries the column. */
const source = (sharedCols: Column[], col: Column): SQL =>
  sharedCols.includes(col) ? sql`c.${sql.identifier(col.name)}` : sql`r.${sql.identifier(col.name)}`;

export async function bulkInsert(tx: Tx, table: Table, values: Record<string, unknown>[]): Promise<void> {
  if (values.length === 0) return;
  const name = sql.identifier(getTableName(table));
  const cols = columnsOf(table);
  const { shared, sharedJson, eachJson } = encode(cols, values);
  const targets = sql.join(cols.map((c) => sql.identifier(c.name)), sql`, `);
  const sources = sql.join(cols.map((c) => source(shared, c)), sql`, `);
  await tx.execute(
    sql`INSERT INTO ${name} (${targets}) SELECT ${sources}
        FROM json_populate_record(NULL::${name}, ${sharedJson}::json) AS c,
             json_populate_recordset(NULL::${name}, ${eachJson}::json) AS r`,
  );
}

/**
 * Writes rows by id; returns the ids that were updated (RLS may hide some). `only` names the
 * (camelCase) columns that changed: a 1000-row update then sends and sets those, not every column.
 */
export async function bulkUpdate(tx: Tx, table: Table, values: Record<string, unknown>[], only?: ReadonlySet<string>): Promise<Set<string>> {
  if (values.length === 0) return new Set();
  const name = sql.identifier(getTableName(table));
  const set = columnsOf(table).filter((c) => c.name !== "id" && (!only || only.has(c.key)));
  const sent = columnsOf(table).filter((c) => c.name === "id" || set.includes(c));
  const { shared, sharedJson, eachJson } = encode(sent, values);
  const targets = sql.join(set.map((c) => sql.identifier(c.name)), sql`, `);
  const sources = sql.join(set.map((c) => source(shared, c)), sql`, `);
  const updated = await rows<{ id: string }>(
    tx,
    sql`UPDATE ${name} AS t SET (${targets}) = ROW(${sources})
        FROM json_populate_record(NULL::${name}, ${sharedJson}::json) AS c,
             json_populate_recordset(NULL::${name}, ${eachJson}::json) AS r
        WHERE t.id = r.id RETURNING t.id`,
  );
  return new Set(updated.map((r) => r.id));
}
