/**
 * Custom field rules: which fields a type has (its own, inherited from parent types, and from the
 * groups it belongs to, as the spec's `source.via`) and whether a value fits a field's kind.
 */
import type { typeFields, types } from "../../db/schema/index.js";

type TypeRow = Pick<typeof types.$inferSelect, "id" | "parentId" | "groupIds">;
type FieldRow = typeof typeFields.$inferSelect;

export interface EffectiveField {
  field: FieldRow;
  via: "own" | "inherited" | "group";
}

/** Fields visible on `typeId`; a key defined closer to the type wins (own > inherited > group). */
export function effectiveFields(
  typeId: string,
  typesById: ReadonlyMap<string, TypeRow>,
  fieldsByType: ReadonlyMap<string, FieldRow[]>,
): Map<string, EffectiveField> {
  const out = new Map<string, EffectiveField>();
  const add = (ownerId: string, via: EffectiveField["via"]) => {
    for (const f of fieldsByType.get(ownerId) ?? []) if (!out.has(f.key)) out.set(f.key, { field: f, via });
  };
  add(typeId, "own");
  const seen = new Set([typeId]);
  let parent = typesById.get(typeId)?.parentId ?? null;
  while (parent && !seen.has(parent)) {
    seen.add(parent);
    add(parent, "inherited");
    parent = typesById.get(parent)?.parentId ?? null;
  }
  for (const g of typesById.get(typeId)?.groupIds ?? []) add(g, "group");
  return out;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DECIMAL = /^-?\d{1,15}(\.\d{1,6})?$/;

/**
 * Returns why `value` does not fit `field`, or null when it fits. `null` always fits (clears). A
 * secret field's value is checked by its kind like any other; where it is stored (encrypted, never
 * in `fields`) is the caller's business (server/modules/secrets/values.ts).
 */
export function fieldValueProblem(field: FieldRow, value: unknown): string | null {
  if (value === null) return null;
  const one = (v: unknown): string | null => {
    switch (field.kind) {
      case "text":
      case "person":
      case "vendor":
        return typeof v === "string" && v.length <= 4000 ? null : "must be text of at most 4000 characters";
      case "number":
        return (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && DECIMAL.test(v)) ? null : "must be a number";
      case "date":
        return typeof v === "string" && DATE.test(v) && !Number.isNaN(Date.parse(v)) ? null : "must be a date (YYYY-MM-DD)";
      case "boolean":
        return typeof v === "boolean" ? null : "must be true or false";
      case "url":
        try {
          const u = new URL(String(v));
          return u.protocol === "http:" || u.protocol === "https:" ? null : "must be an http(s) URL";
        } catch {
          return "must be an http(s) URL";
        }
      case "select":
        return typeof v === "string" && (field.options ?? []).includes(v) ? null : "must be one of the field's options";
      case "multi_select":
        return Array.isArray(v) && v.every((x) => typeof x === "string" && (field.options ?? []).includes(x)) ? null : "must be a list of the field's options";
      case "money": {
        const m = v as { amount?: unknown; currency?: unknown };
        return typeof m === "object" &&
          typeof m.amount === "string" &&
          DECIMAL.test(m.amount) &&
          typeof m.currency === "string" &&
          /^[A-Z]{3}$/.test(m.currency)
          ? null
          : 'must be {"amount": "12.50", "currency": "EUR"}';
      }
      case "file":
        return typeof v === "string" && /^[0-9a-f-]{36}$/i.test(v) ? null : "must be a file id";
    }
  };
  if (field.repeatable && field.kind !== "multi_select") {
    if (!Array.isArray(value)) return "must be a list (the field is repeatable)";
    for (const item of value as unknown[]) {
      const p = one(item);
      if (p) return p;
    }
    return null;
  }
  return one(value);
}
