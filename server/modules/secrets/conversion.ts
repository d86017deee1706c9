/**
 * Converting a type field to or from secret: which things hold a value of it and where each value
 * goes. Shared by the preview (a read) and the conversion (the type_field.convert command, which
 * loads the same plan with the things locked). Nothing is lost: a value that takes the new form
 * moves (into `secret_values`, encrypted, or into the thing's `fields`); one that does not goes into
 * the thing's notes (`description`) as a line "<label>: <value>".
 *
 * Values of deleted things (a tombstone undo can bring back) are converted and counted too, so no
 * plain copy of a new secret is left behind in a row that may come back.
 */
import type { Tx } from "../../db/client.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import type { typeFields } from "../../db/schema/index.js";
import { ConflictError } from "../../errors/classes.js";
import { loadRefs } from "../things/refs.js";
import { fieldValueProblem } from "../types/fields.js";
import { secretBox } from "../../db/secret-box.js";

export type FieldRow = typeof typeFields.$inferSelect;

/** A thing whose value of the field moves, as loaded: the columns the conversion writes. */
export interface ConvertedThing {
  id: string;
  locationId: string;
  typeId: string;
  name: string | null;
  fields: Record<string, unknown>;
  description: string | null;
  rowVersion: number;
  deletedAt: Date | null;
  /** The value (decrypted, for a secret field). */
  value: unknown;
  /** Whether it takes the new form; otherwise it goes into the notes. */
  fits: boolean;
}

/** The notes line a value that cannot take the new form becomes. */
export function notesLine(field: Pick<FieldRow, "label" | "key">, value: unknown): string {
  return `${field.label ?? field.key}: ${typeof value === "string" ? value : JSON.stringify(value)}`;
}

/** `description` with `line` appended on a line of its own. */
export const withNote = (description: string | null, line: string): string => (description ? `${description}\n${line}` : line);

/** Types of the field's account on which `field.key` is this field (own, inherited or by group): where its values live. */
export async function typesUsing(tx: Tx, field: FieldRow, locationId: string): Promise<string[]> {
  const refs = await loadRefs(tx, { locationIds: [locationId] });
  return [...refs.types.values()].filter((t) => refs.fieldsOf(t.id).get(field.key)?.field.id === field.id).map((t) => t.id);
}

type Loaded = Omit<ConvertedThing, "value" | "fits">;

/**
 * The things holding a value of `field` and where each value goes when the field becomes
 * secret (`toSecret`) or plain. `locationId` is one of the account's locations (the types are the
 * account's); `lock` takes the things FOR UPDATE, as the command needs.
 */
export async function conversionPlan(tx: Tx, field: FieldRow, toSecret: boolean, locationId: string, lock: boolean): Promise<ConvertedThing[]> {
  const forUpdate = lock ? sql`FOR UPDATE OF t` : sql``;
  const columns = sql`t.id, t.location_id AS "locationId", t.type_id AS "typeId", t.name, t.fields, t.description, t.row_version AS "rowVersion", t.deleted_at AS "deletedAt"`;
  const target = { ...field, secret: toSecret };
  const fits = (v: unknown) => fieldValueProblem(target, v) === null;
  if (field.secret === toSecret) return [];
  const typeIds = await typesUsing(tx, field, locationId);
  if (!toSecret) {
    // Secret to plain: every stored value of the field, whatever the thing's type is now.
    const found = await rows<Loaded & { ciphertext: string }>(
      tx,
      sql`SELECT ${columns}, sv.ciphertext FROM secret_values sv JOIN things t ON t.id = sv.thing_id
          WHERE sv.field_id = ${field.id} AND sv.ciphertext <> '' ORDER BY t.id ${forUpdate}`,
    );
    const onType = new Set(typeIds);
    let unreadable = 0;
    const out: ConvertedThing[] = [];
    for (const { ciphertext, ...t } of found) {
      let value: unknown;
      try {
        value = secretBox().open({ accountId: field.accountId, entity: "thing", entityId: t.id, fieldId: field.id }, ciphertext);
      } catch {
        unreadable++;
        continue;
      }
      // Into `fields` only where the key still means this field and holds nothing else.
      out.push({ ...fixDates(t), value, fits: onType.has(t.typeId) && !(field.key in t.fields) && fits(value) });
    }
    if (unreadable)
      throw new ConflictError(`${unreadable} value(s) of this field cannot be decrypted (was the server secret changed?); nothing was converted.`, {
        unreadable,
      });
    return out;
  }
  if (!typeIds.length) return [];
  const found = await rows<Loaded>(
    tx,
    sql`SELECT ${columns} FROM things t WHERE t.type_id = ANY(${uuidArray(typeIds)}) AND t.fields -> ${field.key} IS NOT NULL ORDER BY t.id ${forUpdate}`,
  );
  return found.map((t) => {
    const value = t.fields[field.key];
    return { ...fixDates(t), value, fits: fits(value) };
  });
}

/** Raw rows carry timestamps as text. */
function fixDates<T extends { deletedAt: Date | string | null }>(t: T): T & { deletedAt: Date | null } {
  return { ...t, deletedAt: t.deletedAt === null ? null : new Date(t.deletedAt) };
}

/**
 * When a field becomes secret, the values it held while plain are taken out of the history of the
 * things of its types too (the diff keeps the field, class secret, hidden), so the history no
 * longer shows them and undo cannot write them back. One statement.
 */
export async function scrubHistory(tx: Tx, field: FieldRow, locationId: string): Promise<void> {
  const typeIds = await typesUsing(tx, field, locationId);
  if (!typeIds.length) return;
  const key = `fields.${field.key}`;
  await rows(
    tx,
    sql`UPDATE history_entries h SET before = h.before - ${key}::text, after = h.after - ${key}::text,
          diff = h.diff || jsonb_build_object(${key}::text, jsonb_build_object('class', 'secret', 'changed', coalesce((h.diff -> ${key}::text ->> 'changed')::boolean, true), 'hidden', true))
        FROM things t
        WHERE h.entity_type = 'thing' AND h.entity_id = t.id AND t.type_id = ANY(${uuidArray(typeIds)})
          AND ((h.before -> ${key}::text) IS NOT NULL OR (h.after -> ${key}::text) IS NOT NULL)`,
  );
}
