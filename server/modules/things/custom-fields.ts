/** Custom field values of a thing checked against its type's fields, and their history classes. */
import type { FieldClass } from "../../commands/history.js";
import { ValidationError } from "../../errors/classes.js";
import { fieldValueProblem } from "../types/fields.js";
import type { Refs } from "./refs.js";

/** Checks custom field values against the type's fields; returns the first problem. */
export function fieldsProblem(refs: Refs, typeId: string, fields: Record<string, unknown>): ValidationError | null {
  const defs = refs.fieldsOf(typeId);
  for (const [key, value] of Object.entries(fields)) {
    const def = defs.get(key);
    if (!def) return new ValidationError(`fields.${key}: the type has no field "${key}".`, { field: key });
    const why = fieldValueProblem(def.field, value);
    if (why) return new ValidationError(`fields.${key}: ${why}.`, { field: key });
  }
  return null;
}

/** The history class of each custom field among `keys` (secret and money fields are shown to fewer readers). */
export function fieldClasses(refs: Refs, typeId: string, keys: Iterable<string>): Record<string, FieldClass> {
  const defs = refs.fieldsOf(typeId);
  const out: Record<string, FieldClass> = {};
  for (const k of keys) {
    if (!k.startsWith("fields.")) continue;
    const f = defs.get(k.slice(7))?.field;
    out[k] = f?.secret ? "secret" : f?.kind === "money" ? "money" : "plain";
  }
  return out;
}
