/**
 * Meters and readings as the screens show them: the server's rows (shapes `meters`, `readings`)
 * with this device's unconfirmed meter and reading ops replayed on top, in push order, the way
 * optimistic.ts does for things and places. Each op's own apply is in its file (client/ops/meters/,
 * and a reading's review: client/ops/inbox/). Pure: no Dexie, no clock.
 */
import type { Op } from "../../sync/ops.js";
import type { InboxRow, MeterRow, ReadingRow } from "../db/rows.js";
import { applierOf } from "../ops/index.js";
import type { MeterState } from "../ops/views.js";

export type { MeterState } from "../ops/views.js";

export function overlayMeters(server: { meters: MeterRow[]; readings: ReadingRow[]; inbox?: InboxRow[] }, ops: readonly Op[]): MeterState {
  const state: MeterState = {
    reviewed: new Map(
      (server.inbox ?? []).flatMap((i) =>
        i.kind === "reading" && i.payload.reading?.readingId ? [[i.id, i.payload.reading.readingId.toLowerCase()] as const] : [],
      ),
    ),
    meters: new Map(server.meters.filter((m) => !m.deletedAt).map((m) => [m.id, m])),
    readings: new Map(server.readings.filter((r) => !r.deletedAt).map((r) => [r.id, r])),
  };
  for (const op of ops) applierOf(op, "meters")?.(state, op);
  return state;
}
