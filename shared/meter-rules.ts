/**
 * A meter's rules, one copy for the server and the device: the estimate of the meter record
 * (`{perDay, basisDays, ageDays, advice}`) and when a reading is implausible (it is kept, with
 * status `review`, and goes to the inbox). The server picks the readings in SQL
 * (server/modules/meters/read.ts, readings.ts); the device picks the same ones from Dexie with
 * the network off (`estimateOf`, `plausibility`). Decimals throughout (decimal.js), never floats.
 *
 * The estimate:
 * - Only readings that count: status `ok`. A reading waiting in the inbox (`review`) might be a
 *   misread and a `rejected` one is wrong, so neither moves the estimate until a reviewer accepts it.
 * - The period is the 365 days up to the latest counting reading (not up to now): a meter read
 *   rarely keeps its rate, and `ageDays` and `advice` say how old that rate is.
 * - The total of a reading is value + offset (a replaced counter goes on from the old total).
 * - perDay = (last total - first total) / days between the first and the last reading of the
 *   period, to 3 decimals; basisDays = those days; ageDays = days from the latest counting
 *   reading to now (both to 1 decimal, as numbers: they are durations, not values).
 * - advice: `none` with no counting reading; `stale` when nudgeDays is set and ageDays is above
 *   it; `unknown` with fewer than two counting readings in the period or under one day between
 *   them; `fresh` otherwise. Stale outranks unknown: a meter nobody reads is the first thing to fix.
 */
import { Decimal } from "decimal.js";
import type { Estimate, ReadingReason, ReadingStatus } from "./meters.js";

const DAY_MS = 86_400_000;
/** How far back from the latest counting reading the estimate looks. */
export const ESTIMATE_PERIOD_DAYS = 365;

/** A counting reading as the estimate reads it: its total as a decimal string and when it was taken. */
export interface Point {
  total: string;
  at: Date;
}

const days = (ms: number) => new Decimal(ms).div(DAY_MS);
const oneDecimal = (d: Decimal) => d.toDecimalPlaces(1, Decimal.ROUND_HALF_UP).toNumber();

/** `first` and `last` are the earliest and latest counting readings of the period (the same one when only one). */
export function estimate(first: Point | null, last: Point | null, count: number, nudgeDays: number | null, now: Date): Estimate {
  if (!first || !last) return { perDay: null, basisDays: null, ageDays: null, advice: "none" };
  const age = days(now.getTime() - last.at.getTime());
  const basis = days(last.at.getTime() - first.at.getTime());
  const ageDays = oneDecimal(Decimal.max(age, 0));
  const enough = count >= 2 && basis.gte(1);
  const perDay = enough ? new Decimal(last.total).minus(first.total).div(basis).toFixed(3, Decimal.ROUND_HALF_UP) : null;
  const stale = nudgeDays !== null && age.gt(nudgeDays);
  return {
    perDay,
    basisDays: count >= 2 ? oneDecimal(basis) : null,
    ageDays,
    advice: stale ? "stale" : enough ? "fresh" : "unknown",
  };
}

/** A reading as plausibility compares it (from the database or from an earlier op of the segment). */
export interface Neighbour {
  id: string;
  value: string;
  offset: string;
  takenAt: Date;
}

const total = (n: Pick<Neighbour, "value" | "offset">) => new Decimal(n.value).plus(n.offset);
const sameOffset = (a: Neighbour, b: Neighbour) => new Decimal(a.offset).eq(b.offset);

/**
 * Why a new reading is implausible, or null:
 * - `backwards`: its total is below the one before it, or the one after it is below it, where
 *   the two share an offset (a changed offset means a replaced counter, which starts again: a
 *   drop against a reading of another offset is expected, not a misread);
 * - `too_fast`: with maxPerDay set, the total rose from the one before it faster than that per
 *   day (at the same instant, any rise is too fast).
 */
export function implausible(r: Neighbour, before: Neighbour | undefined, after: Neighbour | undefined, maxPerDay: string | null): ReadingReason | null {
  const t = total(r);
  if (before && sameOffset(before, r) && t.lt(total(before))) return "backwards";
  if (after && sameOffset(after, r) && total(after).lt(t)) return "backwards";
  if (before && maxPerDay !== null) {
    const rise = t.minus(total(before));
    const ms = r.takenAt.getTime() - before.takenAt.getTime();
    if (rise.gt(0) && (ms <= 0 || rise.div(new Decimal(ms).div(DAY_MS)).gt(maxPerDay))) return "too_fast";
  }
  return null;
}

// ---- The device's side: the same rules over the readings it holds. ----

/** A reading as the device holds it (a shape row, or one of its own ops not pushed yet). */
export interface HeldReading {
  id: string;
  value: string;
  offset: string;
  takenAt: string;
  status: ReadingStatus;
}

/** ISO 8601 or Postgres text ("2026-11-22 12:00:00.1+00", as shapes carry timestamps). */
export function parseTime(s: string): number {
  return Date.parse(s.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
}

/** Oldest first, ties by id, as the server orders them. */
function inOrder<R extends HeldReading>(readings: readonly R[]): { r: R; at: number }[] {
  return readings
    .map((r) => ({ r, at: parseTime(r.takenAt) }))
    .filter((x) => !Number.isNaN(x.at))
    .sort((a, b) => a.at - b.at || (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0));
}

/** The estimate from the readings the device holds, picked as the server's SQL picks them. */
export function estimateOf(readings: readonly HeldReading[], nudgeDays: number | null, now: Date): Estimate {
  const counting = inOrder(readings.filter((r) => r.status === "ok"));
  const last = counting.at(-1);
  if (!last) return estimate(null, null, 0, nudgeDays, now);
  const period = counting.filter((x) => x.at >= last.at - ESTIMATE_PERIOD_DAYS * DAY_MS);
  const point = (x: { r: HeldReading; at: number }): Point => ({ total: total(x.r).toString(), at: new Date(x.at) });
  return estimate(point(period[0]!), point(last), period.length, nudgeDays, now);
}

/**
 * Whether a value taken at `takenAt` would be implausible against the readings the device holds
 * (not rejected), under the meter's current offset and maxPerDay; with the neighbour it is judged
 * against, for the warning.
 */
export function plausibility<R extends HeldReading>(
  readings: readonly R[],
  reading: { id: string; value: string; offset: string; takenAt: number },
  maxPerDay: string | null,
): { reason: ReadingReason; neighbour: R } | null {
  const held = inOrder(readings.filter((r) => r.status !== "rejected" && r.id !== reading.id));
  const before = held.filter((x) => x.at <= reading.takenAt).at(-1);
  const after = held.find((x) => x.at > reading.takenAt);
  const n = (x: { r: R; at: number } | undefined): Neighbour | undefined => x && { id: x.r.id, value: x.r.value, offset: x.r.offset, takenAt: new Date(x.at) };
  const r: Neighbour = { id: reading.id, value: reading.value, offset: reading.offset, takenAt: new Date(reading.takenAt) };
  const b = n(before);
  const reason = implausible(r, b, n(after), maxPerDay);
  if (!reason) return null;
  // Warn against the reading the rule tripped on: the one before, unless only the one after is higher.
  const fromBefore = reason === "too_fast" || (!!b && sameOffset(b, r) && total(r).lt(total(b)));
  const neighbour = fromBefore ? before : after;
  return neighbour ? { reason, neighbour: neighbour.r } : null;
}
