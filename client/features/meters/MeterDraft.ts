/**
 * The meter form's draft, as text the way it is typed, and what reads it: the default unit of each
 * kind, each field's error message, and the draft of an existing meter to compare an edit with.
 */
import { Decimal } from "decimal.js";
import type { MeterKind } from "../../../shared/meters.js";
import type { MeterRow } from "../../db/rows.js";
import type { MessageKey } from "../../ui/i18n/i18n.js";

export type FieldName = "kind" | "unit" | "label" | "maxPerDay" | "nudgeDays" | "offset";

export interface Draft {
  kind: MeterKind;
  unit: string;
  label: string;
  maxPerDay: string;
  nudgeDays: string;
  offset: string;
}

/** What people usually read each kind in. */
export const DEFAULT_UNIT: Record<MeterKind, string> = {
  electricity: "kWh",
  water: "m³",
  gas: "m³",
  heat: "kWh",
  oil: "l",
  odometer: "km",
  hours: "h",
  other: "",
};

export const FIELD_ERROR: Record<FieldName, MessageKey> = {
  kind: "meters.error.kind",
  unit: "meters.error.unit",
  label: "meters.error.label",
  maxPerDay: "meters.error.maxPerDay",
  nudgeDays: "meters.error.nudgeDays",
  offset: "meters.error.offset",
};

export const numberOrNull = (s: string): number | null => (s.trim() === "" ? null : Number(s.trim()));

/** "0" and "0.000" (numeric text from the shape) are the same offset; anything unreadable counts as a change, for the schema to name. */
export function sameDecimal(a: string, b: string): boolean {
  try {
    return new Decimal(a.trim()).eq(b);
  } catch {
    return false;
  }
}

export function draftOf(meter: MeterRow | undefined): Draft {
  if (!meter) return { kind: "electricity", unit: DEFAULT_UNIT.electricity, label: "", maxPerDay: "", nudgeDays: "", offset: "" };
  return {
    kind: meter.kind,
    unit: meter.unit,
    label: meter.label ?? "",
    maxPerDay: meter.maxPerDay ?? "",
    nudgeDays: meter.nudgeDays === null ? "" : String(meter.nudgeDays),
    offset: meter.offset,
  };
}
