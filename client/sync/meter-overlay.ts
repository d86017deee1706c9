/**
 * Meters and readings as the screens show them: the server's rows (shapes `meters`, `readings`)
 * with this device's unconfirmed meter and reading ops replayed on top, in push order, the way
 * optimistic.ts does for things and places. A reading the server will doubt (shared/meter-rules.ts)
 * shows as waiting for review before it is pushed. Pure: no Dexie, no clock.
 */
import { plausibility } from "../../shared/meter-rules.js";
import type { Op } from "../../sync/ops.js";
import type { InboxRow, MeterRow, ReadingRow } from "../db/rows.js";
import type { View } from "./optimistic.js";

export interface MeterState {
  meters: Map<string, View<MeterRow>>;
  readings: Map<string, View<ReadingRow>>;
  /** The reading each open `reading` inbox item is about (nudges are about none), for reviews made on this device. */
  reviewed: Map<string, string>;
}

const stamps = (op: Op) => ({ rowVersion: 0, createdAt: op.at, updatedAt: op.at, deletedAt: null });

/** maxPerDay travels as a number in ops and arrives as numeric text from the shape. */
const perDayText = (n: number | null | undefined): string | null => (n === null || n === undefined ? null : String(n));

export function applyMeterOp(state: MeterState, op: Op): void {
  switch (op.name) {
    case "meter.create": {
      const a = op.args;
      state.meters.set(a.id, {
        id: a.id,
        locationId: op.locationId,
        thingId: a.thingId,
        kind: a.kind,
        unit: a.unit.trim(),
        label: a.label?.trim() || null,
        offset: a.offset ?? "0",
        maxPerDay: perDayText(a.maxPerDay),
        nudgeDays: a.nudgeDays ?? null,
        nudgedFor: null,
        createdBy: null,
        ...stamps(op),
        pending: true,
      });
      return;
    }
    case "meter.update": {
      const m = state.meters.get(op.args.id);
      if (!m) return;
      const p = op.args.patch;
      state.meters.set(m.id, {
        ...m,
        ...(p.label !== undefined ? { label: p.label?.trim() || null } : {}),
        ...(p.maxPerDay !== undefined ? { maxPerDay: perDayText(p.maxPerDay) } : {}),
        ...(p.nudgeDays !== undefined ? { nudgeDays: p.nudgeDays } : {}),
        ...(p.offset !== undefined ? { offset: p.offset } : {}),
        ...(p.unit !== undefined ? { unit: p.unit.trim() } : {}),
        ...(p.kind !== undefined ? { kind: p.kind } : {}),
        updatedAt: op.at,
        pending: true,
      });
      return;
    }
    case "meter.delete":
      state.meters.delete(op.args.id);
      for (const r of [...state.readings.values()]) if (r.meterId === op.args.id) state.readings.delete(r.id);
      return;
    case "reading.capture": {
      const a = op.args;
      // The server files the reading under the meter's offset when it arrives; the device's best guess is the offset it shows now.
      const meter = state.meters.get(a.meterId);
      const offset = meter?.offset ?? "0";
      // The server's plausibility rule, over what the device holds: a doubtful reading shows as waiting for review at once.
      const held = [...state.readings.values()].filter((r) => r.meterId === a.meterId);
      const doubt = plausibility(held, { id: a.id, value: a.value, offset, takenAt: Date.parse(a.takenAt) }, meter?.maxPerDay ?? null);
      state.readings.set(a.id, {
        id: a.id,
        locationId: op.locationId,
        meterId: a.meterId,
        value: a.value,
        offset,
        takenAt: a.takenAt,
        fileId: a.fileId ?? null,
        status: doubt ? "review" : "ok",
        reason: doubt?.reason ?? null,
        createdBy: null,
        ...stamps(op),
        pending: true,
      });
      return;
    }
    case "inbox.accept":
    case "inbox.dismiss": {
      // Accepting says the reading is right (it counts again), dismissing that it is wrong (server/modules/meters/review.ts).
      const readingId = state.reviewed.get(op.args.id);
      const r = readingId ? state.readings.get(readingId) : undefined;
      if (r) state.readings.set(r.id, { ...r, status: op.name === "inbox.accept" ? "ok" : "rejected", updatedAt: op.at, pending: true });
      return;
    }
    default:
      return;
  }
}

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
  for (const op of ops) applyMeterOp(state, op);
  return state;
}
