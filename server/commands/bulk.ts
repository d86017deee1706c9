/**
 * Set-based writes: a whole segment of rows in one statement, whatever its size, through
 * json_populate_recordset over the table's own row type. Rows are the drizzle (camelCase) shapes;
 * every column must be present because the record type has no defaults.
 */
import { getTableColumns, getTableName, type Table } from "drizzle-orm";
import { type Tx, rows, sql } from "../db/client.js";

function toDbRecord(table: Table, row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = row[key];
    out[column.name] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return out;
}

export async function bulkInsert(tx: Tx, table: Table, values: Record<string, unknown>[]): Promise<void> {
  if (values.length === 0) return;
  const name = sql.identifier(getTableName(table));
  const payload = JSON.stringify(values.map((v) => toDbRecord(table, v)));
  await tx.execute(sql`INSERT INTO ${name} SELECT * FROM json_populate_recordset(NULL::${name}, ${payload}::json)`);
}

/**
 * Writes rows by id; returns the ids that were updated (RLS may hide some). `only` names the
 * (camelCase) columns that changed: a 1000-row update then sets those, not every column.
 */
export async function bulkUpdate(tx: Tx, table: Table, values: Record<string, unknown>[], only?: ReadonlySet<string>): Promise<Set<string>> {
  if (values.length === 0) return new Set();
  const name = sql.identifier(getTableName(table));
  const columns = Object.entries(getTableColumns(table))
    .filter(([key, c]) => c.name !== "id" && (!only || only.has(key)))
    .map(([, c]) => c.name);
  const targets = sql.join(columns.map((c) => sql.identifier(c)), sql`, `);
  const sources = sql.join(columns.map((c) => sql`r.${sql.identifier(c)}`), sql`, `);
  const payload = JSON.stringify(values.map((v) => toDbRecord(table, v)));
  const updated = await rows<{ id: string }>(
    tx,
    sql`UPDATE ${name} AS t SET (${targets}) = ROW(${sources})
        FROM json_populate_recordset(NULL::${name}, ${payload}::json) AS r
        WHERE t.id = r.id RETURNING t.id`,
  );
  return new Set(updated.map((r) => r.id));
}
