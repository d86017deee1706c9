/** Test helpers for secret fields: a type with fields made as the registry routes would, and a dump of every table. */
import { v7 as uuidv7 } from "uuid";
import { rows, sql, type Db } from "../../server/db/client.js";
import { typeFields, types } from "../../server/db/schema/index.js";

export interface FieldSpec {
  key: string;
  label?: string;
  kind: (typeof typeFields.$inferInsert)["kind"];
  secret?: boolean;
  options?: string[];
  repeatable?: boolean;
}

/** A type of the location's account with these fields (rows as the type routes make them); answers the ids. */
export async function typeWithFields(
  db: Db,
  locationId: string,
  name: string,
  fields: FieldSpec[],
): Promise<{ typeId: string; fieldIds: Record<string, string> }> {
  const [acc] = await rows<{ account_id: string }>(db, sql`SELECT account_id FROM locations WHERE id = ${locationId}`);
  const typeId = uuidv7();
  await db.insert(types).values({ id: typeId, accountId: acc!.account_id, name, icon: "thing" });
  const fieldIds: Record<string, string> = {};
  for (const [i, f] of fields.entries()) {
    const id = uuidv7();
    fieldIds[f.key] = id;
    await db.insert(typeFields).values({
      id,
      accountId: acc!.account_id,
      typeId,
      key: f.key,
      label: f.label ?? f.key,
      kind: f.kind,
      secret: f.secret ?? false,
      options: f.options ?? null,
      repeatable: f.repeatable ?? false,
      sort: i,
    });
  }
  return { typeId, fieldIds };
}

/** Every row of every table in the public schema as JSON text, as a pg_dump of the data would hold it (read as the superuser, past RLS). */
export async function dumpAllTables(db: Db): Promise<string> {
  const tables = await rows<{ name: string }>(db, sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`);
  let out = "";
  for (const { name } of tables) {
    const found = await rows<{ r: string }>(db, sql`SELECT row_to_json(t)::text AS r FROM ${sql.identifier(name)} t`);
    out += found.map((x) => x.r).join("\n") + "\n";
  }
  return out;
}
