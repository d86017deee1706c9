/**
 * The history classes of a thing's custom fields. Values are checked by valuesProblem
 * (server/modules/registries/field-values.ts), the one check for things and places alike.
 */
import type { FieldClass } from "../../commands/history.js";
import type { Refs } from "./refs.js";

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
