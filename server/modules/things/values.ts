/**
 * Field-level values of a thing as history and merge see them: plain columns by their camelCase
 * name, custom fields as `fields.<key>` (so two devices editing different custom fields merge).
 */
import type { things } from "../../db/schema/index.js";

export type ThingRow = typeof things.$inferSelect;

/** The columns every command on existing things reads from its targets. */
export const TARGET_KEYS = ["id", "locationId", "typeId", "name", "rowVersion", "deletedAt"] as const;

/**
 * A thing as a command loaded it: the columns every command reads, plus those its ops change
 * (a segment does not read a thousand whole rows to change one column of each).
 */
export type ThingTarget = Pick<ThingRow, (typeof TARGET_KEYS)[number]> & Partial<ThingRow>;

/** Columns a patch may change, besides `fields`. */
export const THING_COLUMNS = [
  "name",
  "description",
  "typeId",
  "quantity",
  "lifecycle",
  "condition",
  "brandId",
  "tagIds",
  "model",
  "colour",
  "serial",
  "isContainer",
  "placeId",
  "containerId",
  "deletedAt",
] as const;
export type ThingColumn = (typeof THING_COLUMNS)[number];

export function readValue(row: Partial<ThingRow>, key: string): unknown {
  if (key.startsWith("fields.")) return customFields(row)[key.slice(7)] ?? null;
  const v = (row as unknown as Record<string, unknown>)[key];
  return v instanceof Date ? v.toISOString() : (v ?? null);
}

export function readValues(row: Partial<ThingRow>, keys: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = readValue(row, k);
  return out;
}

/** The row's custom fields; a row loaded without them cannot be read or written by field. */
function customFields(row: Partial<ThingRow>): Record<string, unknown> {
  if (!row.fields) throw new Error("custom fields read from a thing loaded without them");
  return row.fields;
}

/** A copy of `row` with `values` (same keys as readValues) written in. */
export function writeValues<R extends Partial<ThingRow>>(row: R, values: Record<string, unknown>): R {
  const next: R = { ...row };
  if (row.fields) next.fields = { ...row.fields };
  for (const [k, v] of Object.entries(values)) {
    if (k.startsWith("fields.")) {
      const fields = customFields(next);
      if (v === null) delete fields[k.slice(7)];
      else fields[k.slice(7)] = v;
    } else if (k === "deletedAt") {
      next.deletedAt = v === null ? null : v instanceof Date ? v : new Date(v as string);
    } else {
      (next as unknown as Record<string, unknown>)[k] = v;
    }
  }
  return next;
}
