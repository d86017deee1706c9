/**
 * Field-level values of a thing as history and merge see them: plain columns by their camelCase
 * name, custom fields as `fields.<key>` (so two devices editing different custom fields merge).
 */
import type { things } from "../../db/schema/index.js";

export type ThingRow = typeof things.$inferSelect;

/** Columns a patch may change, besides `fields`. */
export const THING_COLUMNS = [
  "name",
  "description",
  "typeId",
  "quantity",
  "lifecycle",
  "condition",
  "brandId",
  "model",
  "colour",
  "serial",
  "isContainer",
  "placeId",
  "containerId",
  "deletedAt",
] as const;
export type ThingColumn = (typeof THING_COLUMNS)[number];

export function readValue(row: ThingRow, key: string): unknown {
  if (key.startsWith("fields.")) return row.fields[key.slice(7)] ?? null;
  const v = (row as unknown as Record<string, unknown>)[key];
  return v instanceof Date ? v.toISOString() : (v ?? null);
}

export function readValues(row: ThingRow, keys: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = readValue(row, k);
  return out;
}

/** A copy of `row` with `values` (same keys as readValues) written in. */
export function writeValues(row: ThingRow, values: Record<string, unknown>): ThingRow {
  const next: ThingRow = { ...row, fields: { ...row.fields } };
  for (const [k, v] of Object.entries(values)) {
    if (k.startsWith("fields.")) {
      if (v === null) delete next.fields[k.slice(7)];
      else next.fields[k.slice(7)] = v;
    } else if (k === "deletedAt") {
      next.deletedAt = v === null ? null : v instanceof Date ? v : new Date(v as string);
    } else {
      (next as unknown as Record<string, unknown>)[k] = v;
    }
  }
  return next;
}
