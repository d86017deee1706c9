/** How meters and readings read: a meter's name, and decimal values in the person's digits with their unit. */
import type { MeterKind } from "../../../shared/meters.js";
import type { MeterRow } from "../../db/rows.js";

/** What of the i18n context these need (kept to plain types, so the unit tests can import this file without JSX). */
type Numbers = { num: (n: number) => string };
type KindNames = (key: `meters.kind.${MeterKind}`) => string;

/**
 * "12,345.6" (or "١٢٬٣٤٥٫٦"): a decimal string in the person's digits and separators, without
 * passing through a float; trailing zeros of the fraction ("12.500" from numeric(18,3)) go.
 */
export function decimalText(value: string, i18n: Numbers): string {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!m) return value;
  const sample = i18n.num(1234.5);
  const group = sample.length === 7 ? sample[1]! : "";
  const point = sample.at(-2)!;
  const digits = [...sample.replace(/[^\p{Nd}]/gu, "")];
  // The sample's digits are 1,2,3,4,5: their zero is the 1's code point minus one.
  const zero = (digits[0]?.codePointAt(0) ?? 49) - 1;
  const local = (s: string) => s.replace(/\d/g, (d) => String.fromCodePoint(zero + Number(d)));
  const int = m[2]!.replace(/^0+(?=\d)/, "").replace(/\B(?=(\d{3})+(?!\d))/g, "\u0000");
  const frac = (m[3] ?? "").replace(/0+$/, "");
  return `${m[1]}${local(int).replaceAll("\u0000", group)}${frac ? point + local(frac) : ""}`;
}

export function meterName(meter: Pick<MeterRow, "label" | "kind">, t: KindNames): string {
  return meter.label || t(`meters.kind.${meter.kind}`);
}

/** "1,234.5 kWh" in the person's digits, from the decimal string as stored. */
export function valueWithUnit(value: string, meter: Pick<MeterRow, "unit">, i18n: Numbers): string {
  return `${decimalText(value, i18n)} ${meter.unit}`.trim();
}
