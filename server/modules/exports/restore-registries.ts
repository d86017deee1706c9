/**
 * A restore into another account (a backup brought to a new server): the export's registries come
 * along, but every account already has its own built-in types and place kinds (and their fields),
 * made when the account was. Those are matched by their built-in key, so restored things land on
 * the target's "Tool" type rather than on a second one; everything else is restored as new rows.
 */
import { rows, sql, type Tx } from "../../db/client.js";

type Row = Record<string, unknown> & { id: string };

/** Old id -> the target account's id, for each exported registry row the target already has. */
export async function matchRegistries(tx: Tx, accountId: string, parsed: Map<string, Row[]>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const table of ["types", "place_kinds"] as const) {
    const mine = await rows<{ id: string; builtin_key: string }>(
      tx,
      sql`SELECT id::text AS id, builtin_key FROM ${sql.identifier(table)} WHERE account_id = ${accountId} AND builtin_key IS NOT NULL`,
    );
    const byKey = new Map(mine.map((r) => [r.builtin_key, r.id]));
    for (const r of parsed.get(table) ?? []) {
      const match = typeof r.builtin_key === "string" ? byKey.get(r.builtin_key) : undefined;
      if (match) out.set(r.id, match);
    }
  }
  const fields = await rows<{ id: string; owner: string; key: string }>(
    tx,
    sql`SELECT id::text AS id, coalesce(type_id, place_kind_id)::text AS owner, key FROM type_fields WHERE account_id = ${accountId} AND deleted_at IS NULL`,
  );
  const byOwnerKey = new Map(fields.map((f) => [`${f.owner}/${f.key}`, f.id]));
  for (const f of parsed.get("type_fields") ?? []) {
    const owner = out.get((f.type_id ?? f.place_kind_id) as string);
    const match = owner && !f.deleted_at ? byOwnerKey.get(`${owner}/${String(f.key)}`) : undefined;
    if (match) out.set(f.id, match);
  }
  return out;
}
