/**
 * Custom field rules: which fields a type has (its own, inherited from parent types, and from the
 * groups it belongs to, as the spec's `source.via`) and whether a value fits a field's kind. Pure:
 * the checks that need the database (a file id's location) take what they need as arguments, so
 * things, places and secret values all use the same rules.
 */
import { effectiveFields as sharedEffectiveFields, type EffectiveField as SharedEffectiveField } from "../../../shared/fields.js";
import { UUID_PATTERN } from "../../../shared/ids.js";
import type { typeFields, types } from "../../db/schema/index.js";

type TypeRow = Pick<typeof types.$inferSelect, "id" | "parentId" | "groupIds">;
type FieldRow = typeof typeFields.$inferSelect;

/** A field as a type sees it (shared/fields.ts): own, inherited or from a group. */
export type EffectiveField = SharedEffectiveField<FieldRow>;

/** Fields visible on `typeId`; a key defined closer to the type wins (own > inherited > group). */
export function effectiveFields(
  typeId: string,
  typesById: ReadonlyMap<string, TypeRow>,
  fieldsByType: ReadonlyMap<string, FieldRow[]>,
): Map<string, EffectiveField> {
  return sharedEffectiveFields(typeId, typesById, fieldsByType);
}

/** The fields of a place kind (place kinds have no parents or groups: every field is its own). */
export function placeKindFields(kindId: string, fields: readonly FieldRow[]): Map<string, EffectiveField> {
  const out = new Map<string, EffectiveField>();
  for (const f of fields) if (f.placeKindId === kindId && !f.archivedAt && !f.deletedAt) out.set(f.key, { field: f, via: "own", ownerId: kindId });
  return out;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d{1,15}(\.\d{1,6})?$/;
/** Text values (text, person, vendor) at most this long. */
export const MAX_TEXT_VALUE = 4000;
/** A person or vendor is named, not described: at most this long. */
export const MAX_NAME_VALUE = 200;
/** A repeatable field holds at most this many values. */
export const MAX_REPEATS = 50;
/** ISO 4217 codes as the runtime's ICU knows them (162 in Node 22), XXX and test codes excluded. */
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

export const isCurrency = (c: unknown): boolean => typeof c === "string" && /^[A-Z]{3}$/.test(c) && CURRENCIES.has(c);

const named = (v: unknown) => typeof v === "string" && v.trim().length > 0 && v.length <= MAX_NAME_VALUE;

/**
 * Returns why `value` does not fit `field`, or null when it fits. `null` always fits (clears).
 * person: the name of a member or a contact (free text, 1-200); vendor: a shop's name (1-200);
 * file: the id of an uploaded file (its location is checked by `fileIdsOf` + the caller);
 * money: `{amount: decimal string, currency: ISO 4217}`; repeatable: a list of at most 50 values.
 * A secret field's value is checked by its kind like any other; where it is stored (encrypted, never
 * in `fields`) is the caller's business (server/modules/secrets/values.ts).
 */
export function fieldValueProblem(field: FieldRow, value: unknown): string | null {
  if (value === null) return null;
  const one = (v: unknown): string | null => {
    switch (field.kind) {
      case "text":
        return typeof v === "string" && v.length <= MAX_TEXT_VALUE ? null : `must be text of at most ${MAX_TEXT_VALUE} characters`;
      case "person":
        return named(v) ? null : `must be the name of a member or a contact (1 to ${MAX_NAME_VALUE} characters)`;
      case "vendor":
        return named(v) ? null : `must be a vendor's name (1 to ${MAX_NAME_VALUE} characters)`;
      case "number":
        return (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && DECIMAL.test(v)) ? null : "must be a number";
      case "date":
        return typeof v === "string" && DATE.test(v) && !Number.isNaN(Date.parse(v)) ? null : "must be a date (YYYY-MM-DD)";
      case "boolean":
        return typeof v === "boolean" ? null : "must be true or false";
      case "url":
        try {
          const u = new URL(String(v));
          return typeof v === "string" && v.length <= MAX_TEXT_VALUE && (u.protocol === "http:" || u.protocol === "https:") ? null : "must be an http(s) URL";
        } catch {
          return "must be an http(s) URL";
        }
      case "select":
        return typeof v === "string" && (field.options ?? []).includes(v) ? null : "must be one of the field's options";
      case "multi_select":
        return Array.isArray(v) && new Set(v).size === v.length && v.every((x) => typeof x === "string" && (field.options ?? []).includes(x))
          ? null
          : "must be a list of distinct options of the field";
      case "money": {
        const m = v as { amount?: unknown; currency?: unknown } | null;
        return typeof m === "object" &&
          m !== null &&
          !Array.isArray(m) &&
          Object.keys(m).every((k) => k === "amount" || k === "currency") &&
          typeof m.amount === "string" &&
          DECIMAL.test(m.amount) &&
          isCurrency(m.currency)
          ? null
          : 'must be {"amount": "12.50", "currency": "EUR"} (a decimal string and an ISO 4217 currency)';
      }
      case "file":
        return typeof v === "string" && UUID_PATTERN.test(v) ? null : "must be the id of an uploaded file";
    }
  };
  if (field.repeatable && field.kind !== "multi_select") {
    if (!Array.isArray(value)) return "must be a list (the field is repeatable)";
    if (value.length > MAX_REPEATS) return `must be a list of at most ${MAX_REPEATS} values`;
    for (const item of value as unknown[]) {
      const p = one(item);
      if (p) return p;
    }
    return null;
  }
  return one(value);
}

/** The file ids `values` name in file fields of `defs` (to check they exist in the row's location). */
export function fileIdsOf(defs: ReadonlyMap<string, EffectiveField>, values: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [key, v] of Object.entries(values)) {
    if (defs.get(key)?.field.kind !== "file" || v === null) continue;
    for (const id of Array.isArray(v) ? v : [v]) if (typeof id === "string") out.push(id);
  }
  return out;
}

/**
 * The first required field (live, not secret: the secrets helper checks those) that `values` leaves
 * empty, or null. Enforced where a finished record is made (thing.create through REST and push,
 * places), never on capture drafts, which exist to be completed later.
 */
export function missingRequired(defs: ReadonlyMap<string, EffectiveField>, values: Record<string, unknown>): string | null {
  for (const [key, { field }] of defs) {
    if (!field.required || field.archivedAt || field.secret) continue;
    const v = values[key];
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) return key;
  }
  return null;
}
