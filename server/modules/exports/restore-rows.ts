/**
 * Writing an export's rows back, table by table, exactly as exported (every column, timestamps and
 * row versions included, so a second export reads byte for byte like the first once ids are
 * mapped). The columns and foreign keys come from the database's own catalog, so a column added by
 * a later migration is restored without a mapping here that could fall behind the schema.
 *
 * These rows bypass the command layer on purpose: a restore puts back what the write path already
 * accepted once, with its history, rather than making new changes. What a command would have
 * checked is checked here instead, after the rows are in and before the transaction commits: every
 * reference must stay inside the restored location and its account (`checkReferences`).
 */
import type { SQL } from "drizzle-orm";
import { rows, sql, uuidArray, type Tx } from "../../db/client.js";
import { ValidationError } from "../../errors/classes.js";

export interface Owner {
  /** `location_id` or `account_id`: forced to the restore's target whatever the row says. */
  column: "location_id" | "account_id";
  id: string;
}

export interface Catalog {
  columns: Map<string, string[]>;
  notNull: Set<string>;
  /** Single-column foreign keys of each table: column -> referenced table. */
  refs: Map<string, Map<string, string>>;
}

const textArray = (names: readonly string[]) => sql`${`{${names.join(",")}}`}::text[]`;

export async function catalogOf(tx: Tx, tables: readonly string[]): Promise<Catalog> {
  const cols = await rows<{ t: string; c: string; nn: boolean }>(
    tx,
    sql`SELECT c.relname AS t, a.attname AS c, a.attnotnull AS nn FROM pg_attribute a
          JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relname = ANY(${textArray(tables)}) AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
        ORDER BY c.relname, a.attnum`,
  );
  const fks = await rows<{ t: string; c: string; r: string }>(
    tx,
    sql`SELECT c.relname AS t, a.attname AS c, r.relname AS r FROM pg_constraint k
          JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
        WHERE k.contype = 'f' AND n.nspname = 'public' AND cardinality(k.conkey) = 1 AND c.relname = ANY(${textArray(tables)})`,
  );
  const columns = new Map<string, string[]>();
  const notNull = new Set<string>();
  for (const { t, c, nn } of cols) {
    columns.set(t, [...(columns.get(t) ?? []), c]);
    if (nn) notNull.add(`${t}.${c}`);
  }
  const refs = new Map<string, Map<string, string>>();
  for (const { t, c, r } of fks) refs.set(t, (refs.get(t) ?? new Map<string, string>()).set(c, r));
  return { columns, notNull, refs };
}

export interface Scope {
  locationId: string;
  accountId: string;
  /** Where a table's rows belong: the target location, or (registries) the target account. */
  ownerOf: (table: string) => Owner;
}

/** The condition "row `alias` of `table` belongs to the restore's target". */
function ownedBy(scope: Scope, table: string, alias: SQL): SQL {
  const owner = scope.ownerOf(table);
  return sql`${alias}.${sql.identifier(owner.column)} = ${owner.id}::uuid`;
}

/** How a reference column is written: as it stands (required, checked before), resolved now, or later. */
export type RefPlan = { how: "as-is" } | { how: "resolve"; ref: string } | { how: "defer"; ref: string };

/** The column's value only where the row it names is the target's; NULL otherwise. */
const resolved = (scope: Scope, column: string, ref: string) =>
  sql`CASE WHEN EXISTS (SELECT 1 FROM ${sql.identifier(ref)} x WHERE x.id = r.${sql.identifier(column)} AND ${ownedBy(scope, ref, sql`x`)})
        THEN r.${sql.identifier(column)} END`;

/**
 * Inserts the rows of `json` (an array of the table's rows, ids already mapped) whose new id is in
 * `only`. Optional references are resolved against what the target holds (see `resolved`);
 * deferred ones (rows of a table not written yet) start NULL and are filled by `fillDeferred`.
 * `fallback` gives a column's value when the references it stands with resolve to nothing (a thing
 * whose place and box both stayed out of the export goes to Unplaced).
 */
export async function insertRows(
  tx: Tx,
  scope: Scope,
  table: string,
  columns: string[],
  json: string,
  plan: Map<string, RefPlan>,
  only: string[],
  fallback?: { column: string; when: string[]; value: string },
): Promise<number> {
  const owner = scope.ownerOf(table);
  const valueOf = (c: string): SQL => {
    const p = plan.get(c);
    if (c === owner.column) return sql`${owner.id}::uuid`;
    if (!p || p.how === "as-is") return sql`r.${sql.identifier(c)}`;
    if (p.how === "defer") return sql`NULL`;
    return resolved(scope, c, p.ref);
  };
  const values = columns.map((c) => {
    if (fallback?.column !== c) return valueOf(c);
    const others = fallback.when.map((o) => sql`(${valueOf(o)}) IS NULL`);
    return sql`coalesce(${valueOf(c)}, CASE WHEN ${sql.join(others, sql` AND `)} THEN ${fallback.value}::uuid END)`;
  });
  const made = await rows<{ n: number }>(
    tx,
    sql`WITH made AS (
          INSERT INTO ${sql.identifier(table)} (${sql.join(
            columns.map((c) => sql.identifier(c)),
            sql`, `,
          )})
          SELECT ${sql.join(values, sql`, `)} FROM jsonb_populate_recordset(NULL::${sql.identifier(table)}, ${json}::jsonb) r
          WHERE r.id = ANY(${uuidArray(only)})
          RETURNING 1)
        SELECT count(*)::int AS n FROM made`,
  );
  return made[0]?.n ?? 0;
}

/**
 * Fills the optional references left NULL by `insertRows`, each only where the row it names was
 * restored into the target (a reference to something the export left out, or to anything outside
 * the target, stays NULL).
 */
export async function fillDeferred(tx: Tx, scope: Scope, table: string, json: string, plan: Map<string, RefPlan>): Promise<void> {
  const deferred = [...plan].filter((e): e is [string, { how: "defer"; ref: string }] => e[1].how === "defer");
  if (!deferred.length) return;
  await tx.execute(
    sql`UPDATE ${sql.identifier(table)} t SET ${sql.join(
      deferred.map(([c, p]) => sql`${sql.identifier(c)} = ${resolved(scope, c, p.ref)}`),
      sql`, `,
    )}
        FROM jsonb_populate_recordset(NULL::${sql.identifier(table)}, ${json}::jsonb) r
        WHERE t.id = r.id AND ${ownedBy(scope, table, sql`t`)} AND (${sql.join(
          deferred.map(([c]) => sql`r.${sql.identifier(c)} IS NOT NULL`),
          sql` OR `,
        )})`,
  );
}

/** Puts the exported columns of one row onto an existing row (the target's own Unplaced area). */
export async function overwriteRow(tx: Tx, table: string, columns: string[], json: string, id: string, keep: string[]): Promise<void> {
  const set = columns.filter((c) => c !== "id" && !keep.includes(c)).map((c) => sql`${sql.identifier(c)} = r.${sql.identifier(c)}`);
  await tx.execute(
    sql`UPDATE ${sql.identifier(table)} t SET ${sql.join(set, sql`, `)}
        FROM jsonb_populate_recordset(NULL::${sql.identifier(table)}, ${json}::jsonb) r WHERE t.id = ${id}::uuid AND r.id = t.id`,
  );
}

/** uuid[] columns that hold references the catalog does not know (arrays have no foreign keys). */
const ARRAY_REFS: { table: string; column: string; ref: string }[] = [
  { table: "things", column: "tag_ids", ref: "tags" },
  { table: "things", column: "photo_file_ids", ref: "files" },
  { table: "types", column: "group_ids", ref: "types" },
  { table: "purchases", column: "file_ids", ref: "files" },
  { table: "box_checks", column: "seen", ref: "things" },
  { table: "box_checks", column: "moved_in", ref: "things" },
  { table: "box_checks", column: "not_here", ref: "things" },
];

/**
 * After the rows are in, what the catalog cannot order: a reference to a registry the restore did
 * not write must be the account's own, or the restore is refused (a crafted zip must not reach
 * another tenant's rows); a person who is no member of the account, or another account's
 * location, is dropped from the row (set NULL) rather than named in it; ids in uuid[] columns that
 * name nothing of the target (left out of the export, or never its own) are taken out.
 */
export async function settleReferences(tx: Tx, catalog: Catalog, tables: string[], written: Set<string>, scope: Scope, registries: Set<string>): Promise<void> {
  for (const table of tables) {
    const mine = ownedBy(scope, table, sql`t`);
    for (const [column, ref] of catalog.refs.get(table) ?? []) {
      const col = sql`t.${sql.identifier(column)}`;
      if (column === scope.ownerOf(table).column || written.has(ref)) continue;
      if (ref === "users") {
        await tx.execute(
          sql`UPDATE ${sql.identifier(table)} t SET ${sql.identifier(column)} = NULL WHERE ${mine} AND ${col} IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM memberships m JOIN locations l ON l.id = m.location_id WHERE m.user_id = ${col} AND l.account_id = ${scope.accountId}::uuid)`,
        );
      } else if (ref === "locations") {
        await tx.execute(
          sql`UPDATE ${sql.identifier(table)} t SET ${sql.identifier(column)} = NULL WHERE ${mine} AND ${col} IS NOT NULL
                AND NOT EXISTS (SELECT 1 FROM locations l WHERE l.id = ${col} AND l.account_id = ${scope.accountId}::uuid)`,
        );
      } else if (registries.has(ref)) {
        const bad = await rows(
          tx,
          sql`SELECT 1 FROM ${sql.identifier(table)} t JOIN ${sql.identifier(ref)} r ON r.id = ${col} WHERE ${mine} AND NOT (${ownedBy(scope, ref, sql`r`)}) LIMIT 1`,
        );
        if (bad.length) throw new ValidationError(`The export's ${table}.${column} refers to something outside its account; it cannot be restored.`);
      }
    }
  }
  for (const a of ARRAY_REFS.filter((a) => tables.includes(a.table))) {
    const col = sql.identifier(a.column);
    await tx.execute(
      sql`UPDATE ${sql.identifier(a.table)} t SET ${col} = ARRAY(SELECT x FROM unnest(t.${col}) x WHERE EXISTS (SELECT 1 FROM ${sql.identifier(a.ref)} r WHERE r.id = x AND ${ownedBy(scope, a.ref, sql`r`)}))
          WHERE ${ownedBy(scope, a.table, sql`t`)} AND EXISTS (SELECT 1 FROM unnest(t.${col}) x WHERE NOT EXISTS (SELECT 1 FROM ${sql.identifier(a.ref)} r WHERE r.id = x AND ${ownedBy(scope, a.ref, sql`r`)}))`,
    );
  }
}
