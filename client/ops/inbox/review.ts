/** What an inbox decision shares: where its effects show up, and a reading's review on the meters view. Pure. */
import type { SyncedTableName } from "../../db/rows.js";
import type { MeterState } from "../views.js";

/** A reviewed reading changes its reading; a label claim, who holds the code; a draft, its thing. */
export const INBOX_SHAPES: readonly SyncedTableName[] = ["inbox", "readings", "codes", "things", "places"];

/** Accepting a reading's item says the reading is right (it counts again), dismissing that it is wrong (server/modules/meters/review.ts). */
export function reviewReading(state: MeterState, itemId: string, status: "ok" | "rejected", at: string): void {
  const readingId = state.reviewed.get(itemId);
  const r = readingId ? state.readings.get(readingId) : undefined;
  if (r) state.readings.set(r.id, { ...r, status, updatedAt: at, pending: true });
}
