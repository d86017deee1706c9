/**
 * A thing's AI suggestions and field values on the device, read by the answers to them
 * (client/ops/things/thing.suggestion.accept.ts, thing.field.confirm.ts) and the suggestion list.
 * Pure functions over a thing row.
 */
import type { FieldStatus, Suggestion } from "../../shared/extractions.js";
import type { ThingRow } from "../db/rows.js";

/** The thing's columns a suggestion can fill (custom fields are `fields.<key>`). */
const TEXT_COLUMNS = ["name", "description", "model", "serial", "colour"] as const;
type TextColumn = (typeof TEXT_COLUMNS)[number];
const isTextColumn = (k: string): k is TextColumn => (TEXT_COLUMNS as readonly string[]).includes(k);

/** The suggestion of one extraction for a field, if the device holds it. */
export function findSuggestion(status: FieldStatus | undefined, field: string, extractionId: string): Suggestion | undefined {
  return status?.[field]?.suggestions?.find((s) => s.source.extractionId === extractionId);
}

const asText = (v: unknown): string | null => (v === null || v === undefined ? null : typeof v === "string" ? v : JSON.stringify(v));

/** The thing with `value` in the field named by a field key. */
export function withFieldValue<T extends ThingRow>(thing: T, field: string, value: unknown): T {
  if (isTextColumn(field)) return { ...thing, [field]: asText(value) };
  // A quantity is a decimal (the server's numeric); anything else is left to the server to refuse.
  if (field === "quantity") return typeof value === "string" || typeof value === "number" ? { ...thing, quantity: String(value) } : thing;
  if (field.startsWith("fields.")) {
    const key = field.slice("fields.".length);
    const fields = { ...thing.fields };
    if (value === null || value === undefined) delete fields[key];
    else fields[key] = value;
    return { ...thing, fields };
  }
  return thing;
}

/** The value a field key names on a thing (a column, or a custom field's stored value). */
export function fieldValueOf(thing: ThingRow, field: string): unknown {
  if (field.startsWith("fields.")) return thing.fields[field.slice("fields.".length)];
  if (isTextColumn(field) || field === "quantity") return thing[field];
  return undefined;
}
