/**
 * Reads of secret fields: which of a thing's secret fields hold a value (never the value), a
 * revealed value (after the command checked and audited the reveal), and conversion previews.
 */
import { eq } from "drizzle-orm";
import type { ConversionPreview, RevealedSecret } from "../../../shared/secrets.js";
import type { Tx } from "../../db/client.js";
import { rows, sql } from "../../db/client.js";
import { typeFields } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { loadRefs } from "../things/refs.js";
import type { EffectiveField } from "../types/fields.js";
import type { ConvertedThing, FieldRow } from "./conversion.js";
import { secretBox } from "../../db/secret-box.js";

/**
 * The secret fields of the thing's account, each with whether this thing holds a value for it:
 * by field id. Empty (one indexed query, no more) for the many accounts without secret fields.
 */
export async function secretFieldStates(tx: Tx, thingId: string, locationId: string): Promise<Map<string, boolean>> {
  const found = await rows<{ id: string; set: boolean }>(
    tx,
    sql`SELECT f.id, coalesce(sv.ciphertext <> '', false) AS set
        FROM type_fields f
        LEFT JOIN secret_values sv ON sv.field_id = f.id AND sv.thing_id = ${thingId}
        WHERE f.account_id = (SELECT account_id FROM locations WHERE id = ${locationId})
          AND f.secret AND f.archived_at IS NULL AND f.deleted_at IS NULL`,
  );
  return new Map(found.map((r) => [r.id, r.set]));
}

/** The thing's secret fields as the detail shows them: `{key, set}` in the fields' order. */
export function secretsOut(defs: ReadonlyMap<string, EffectiveField>, states: ReadonlyMap<string, boolean>): { key: string; set: boolean }[] {
  return [...defs.values()]
    .filter((d) => d.field.secret)
    .sort((a, b) => a.field.sort - b.field.sort || a.field.key.localeCompare(b.field.key))
    .map((d) => ({ key: d.field.key, set: states.get(d.field.id) ?? false }));
}

/** The stored text of a thing's value for a field: undefined when there is no row, "" when cleared. */
export async function storedSecret(tx: Tx, thingId: string, fieldId: string): Promise<string | undefined> {
  const [row] = await rows<{ ciphertext: string }>(tx, sql`SELECT ciphertext FROM secret_values WHERE thing_id = ${thingId} AND field_id = ${fieldId}`);
  return row?.ciphertext;
}

/** The field `key` means on the thing's type, if it is a secret one. */
export async function secretFieldOf(tx: Tx, thing: { typeId: string; locationId: string }, key: string): Promise<FieldRow | undefined> {
  const f = (await loadRefs(tx, { locationIds: [thing.locationId] })).fieldsOf(thing.typeId).get(key)?.field;
  return f?.secret ? f : undefined;
}

/** A thing's value of a secret field, decrypted (null when it holds none). The caller checked the policy and wrote the audit. */
export async function revealedValue(tx: Tx, thing: { id: string; typeId: string; locationId: string }, key: string): Promise<RevealedSecret> {
  const field = await secretFieldOf(tx, thing, key);
  if (!field) throw new NotFoundError("secret field");
  const stored = await storedSecret(tx, thing.id, field.id);
  if (!stored) return { key, value: null };
  return { key, value: secretBox().open({ accountId: field.accountId, entity: "thing", entityId: thing.id, fieldId: field.id }, stored) };
}

/** A type field the actor can see (registries are read by every reader of the account), or 404. */
export async function findTypeField(tx: Tx, id: string): Promise<FieldRow> {
  const [row] = await tx.select().from(typeFields).where(eq(typeFields.id, id));
  if (!row || row.deletedAt) throw new NotFoundError("type field");
  return row;
}

/** The preview's counts, per location of the field's account the actor can see (all of them, with zeros). */
export function previewOf(plan: ConvertedThing[], seen: { id: string; name: string | null }[]): ConversionPreview {
  const out = seen.map((l) => {
    const here = plan.filter((t) => t.locationId === l.id);
    const convertible = here.filter((t) => t.fits).length;
    return { id: l.id, name: l.name, values: here.length, convertible, toNotes: here.length - convertible };
  });
  return { locations: out, total: out.reduce((n, l) => n + l.values, 0) };
}
