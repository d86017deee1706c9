/**
 * What an export holds: each table of the scope, read page by page by id (a keyset, so memory stays
 * one page whatever the size), with the filters the export's options set. Rows are the tables'
 * own columns (`to_jsonb`), so the JSON is machine-readable and complete without a mapping that
 * could fall behind the schema.
 */
import { rows, sql, uuidArray, type Db } from "../../db/client.js";
import { asSystem } from "../../db/actor.js";
import type { SQL } from "drizzle-orm";
import type { ExportOptions } from "../../../shared/exports.js";

export interface Scope {
  accountId: string;
  locationIds: string[];
  options: ExportOptions;
}

export interface Table {
  name: string;
  /** Rows of the scope's locations, or of its owner account (registries, contacts). */
  by: "location" | "account" | "self";
  trash: boolean;
  when?: (o: ExportOptions) => boolean;
  extra?: (o: ExportOptions) => SQL | null;
}

export const TABLES: Table[] = [
  { name: "locations", by: "self", trash: true },
  { name: "place_kinds", by: "account", trash: true },
  { name: "types", by: "account", trash: true },
  { name: "type_fields", by: "account", trash: true },
  { name: "tags", by: "account", trash: true },
  { name: "brands", by: "account", trash: true },
  { name: "contacts", by: "account", trash: true },
  { name: "places", by: "location", trash: true },
  { name: "things", by: "location", trash: true, extra: (o) => (o.ended ? null : sql`t.lifecycle <> 'ended'`) },
  { name: "files", by: "location", trash: true },
  { name: "meters", by: "location", trash: true },
  { name: "readings", by: "location", trash: true },
  { name: "loans", by: "location", trash: true },
  { name: "moves", by: "location", trash: true },
  { name: "move_boxes", by: "location", trash: true },
  { name: "box_checks", by: "location", trash: true },
  { name: "purchases", by: "location", trash: true },
  { name: "inbox_items", by: "location", trash: true },
  { name: "history_entries", by: "location", trash: false, when: (o) => o.history },
  { name: "ai_calls", by: "location", trash: false, when: (o) => o.aiCalls },
];

/** The tables this export includes (history and AI calls only when asked). */
export const tablesOf = (o: ExportOptions) => TABLES.filter((t) => !t.when || t.when(o));

function where(table: Table, scope: Scope, hasDeletedAt: boolean): SQL {
  const parts: SQL[] = [];
  if (table.by === "self") parts.push(sql`t.id = ANY(${uuidArray(scope.locationIds)})`);
  else if (table.by === "account") parts.push(sql`t.account_id = ${scope.accountId}`);
  else parts.push(sql`t.location_id = ANY(${uuidArray(scope.locationIds)})`);
  if (table.trash && hasDeletedAt && !scope.options.trashed) parts.push(sql`t.deleted_at IS NULL`);
  const extra = table.extra?.(scope.options);
  if (extra) parts.push(extra);
  return sql.join(parts, sql` AND `);
}

/** Which tables have a tombstone column (asked once per export rather than hard-coded per table). */
export async function tombstoned(db: Db): Promise<Set<string>> {
  const found = await asSystem(db, (tx) =>
    rows<{ table_name: string }>(tx, sql`SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'deleted_at'`),
  );
  return new Set(found.map((r) => r.table_name));
}

export async function countRows(db: Db, table: Table, scope: Scope, dead: Set<string>): Promise<number> {
  const [row] = await asSystem(db, (tx) =>
    rows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table.name)} t WHERE ${where(table, scope, dead.has(table.name))}`),
  );
  return row?.n ?? 0;
}

export const PAGE = 500;

/** One page of rows after `after` (by id), each as its JSON text. */
export async function pageOf(db: Db, table: Table, scope: Scope, dead: Set<string>, after: string | null): Promise<{ id: string; json: string }[]> {
  const from = after ? sql` AND t.id > ${after}::uuid` : sql``;
  return asSystem(db, (tx) =>
    rows<{ id: string; json: string }>(
      tx,
      sql`SELECT t.id::text AS id, to_jsonb(t)::text AS json FROM ${sql.identifier(table.name)} t
          WHERE ${where(table, scope, dead.has(table.name))}${from} ORDER BY t.id LIMIT ${PAGE}`,
    ),
  );
}
