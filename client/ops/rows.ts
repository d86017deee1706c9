/**
 * What the optimistic apply of many ops shares: the stamps of a row made on the device, replacing a
 * row with a change, a patch without the keys it leaves alone. Pure.
 */
import type { Op } from "../../sync/ops.js";

/** A row as a screen sees it: `pending` while one of this device's ops about it is unconfirmed. */
export type View<T> = T & { pending?: boolean };

/** A row made on the device: version 0 until the server's row arrives. */
export const stamps = (op: Pick<Op, "at">) => ({ rowVersion: 0, createdAt: op.at, updatedAt: op.at, deletedAt: null });

/** Replaces the row `id` (when the device holds it) with its change, marked pending. */
export function edit<T extends object>(map: Map<string, View<T>>, id: string, change: (row: View<T>) => T): void {
  const row = map.get(id);
  if (row) map.set(id, { ...change(row), pending: true });
}

/** A patch without the keys it leaves alone (`{name: undefined}` means "not changed"). */
export function defined<T extends object>(patch: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/** A `fields` patch merges by key, and null clears a key (as the server writes it: server/modules/things/values.ts). */
export function mergeFields(before: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...before };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** Milliseconds of a timestamp as shapes ("2026-11-22 12:00:00.1+00") or ops (ISO 8601) carry it; NaN if neither. */
export function timeMs(at: string): number {
  return Date.parse(at.replace(" ", "T").replace(/([+-]\d\d)$/, "$1:00"));
}
