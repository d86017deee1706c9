/**
 * A pushed op that is dropped becomes a sync_drop inbox item carrying the op (sync/SPEC.md DR2),
 * and inbox items sync. A secret field's value in a dropped thing or place op must not ride along in
 * plain text: it is withheld (taken out of the op's fields) and the item's message says so.
 */
import type { PushOp } from "../../../sync/protocol.js";
import { rows, sql, type Tx, uuidArray } from "../../db/client.js";

type Fields = Record<string, unknown>;

/** The `fields` a thing or place op carries (create and capture: args.fields; update: args.patch.fields). */
function fieldsOf(op: PushOp): Fields | undefined {
  if (!op.name.startsWith("thing.") && !op.name.startsWith("place.")) return undefined;
  const a = op.args as { fields?: unknown; patch?: { fields?: unknown } } | null;
  const f = a?.fields ?? a?.patch?.fields;
  return f && typeof f === "object" && !Array.isArray(f) ? (f as Fields) : undefined;
}

/**
 * The ops with every value of a key that is a secret field in their location's account taken out
 * (conservatively: whatever type the op names), and for each op the keys withheld.
 */
export async function withholdSecrets(tx: Tx, ops: PushOp[]): Promise<{ op: PushOp; withheld: string[] }[]> {
  const carrying = ops.filter((o) => Object.keys(fieldsOf(o) ?? {}).length);
  if (!carrying.length) return ops.map((op) => ({ op, withheld: [] }));
  const found = await rows<{ location_id: string; key: string }>(
    tx,
    sql`SELECT DISTINCT l.id AS location_id, f.key FROM locations l JOIN type_fields f ON f.account_id = l.account_id
        WHERE l.id = ANY(${uuidArray([...new Set(carrying.map((o) => o.locationId))])}) AND f.secret AND f.deleted_at IS NULL`,
  );
  const secretKeys = new Set(found.map((r) => `${r.location_id}:${r.key}`));
  return ops.map((op) => {
    const fields = fieldsOf(op);
    const withheld = Object.keys(fields ?? {}).filter((k) => secretKeys.has(`${op.locationId}:${k}`));
    if (!withheld.length) return { op, withheld };
    const kept = Object.fromEntries(Object.entries(fields!).filter(([k]) => !withheld.includes(k)));
    const a = op.args as Record<string, unknown> & { patch?: Record<string, unknown> };
    const args = "fields" in a ? { ...a, fields: kept } : { ...a, patch: { ...a.patch, fields: kept } };
    return { op: { ...op, args }, withheld };
  });
}
