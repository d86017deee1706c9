/**
 * What the meter screens read: a thing's meters (or one meter) with their readings, from Dexie
 * with this device's unconfirmed meter and reading ops on top (meter-overlay.ts), and what the
 * device works out from them: the latest reading, the estimate and whether a new value would be
 * doubted (the server's rules: shared/meter-rules.ts).
 */
import { Decimal } from "decimal.js";
import { estimateOf, parseTime, plausibility } from "../../../shared/meter-rules.js";
import type { Estimate, ReadingReason } from "../../../shared/meters.js";
import type { Op } from "../../../sync/ops.js";
import type { InventoryDb } from "../../db/database.js";
import type { MeterRow, ReadingRow } from "../../db/rows.js";
import { overlayMeters } from "../../sync/meter-overlay.js";
import type { View } from "../../sync/optimistic.js";
import { useLive } from "../../ui/data.js";

export interface MeterView {
  meter: View<MeterRow>;
  /** Newest first. */
  readings: View<ReadingRow>[];
  /** The newest reading that counts (not rejected). */
  latest: View<ReadingRow> | undefined;
  estimate: Estimate;
  needsReview: number;
}

const METER_OPS = new Set<Op["name"]>(["meter.create", "meter.update", "meter.delete", "reading.capture", "inbox.accept", "inbox.dismiss"]);

export const byTakenAtDesc = (a: { takenAt: string }, b: { takenAt: string }) => parseTime(b.takenAt) - parseTime(a.takenAt);

export function meterViews(meters: View<MeterRow>[], readings: View<ReadingRow>[], now: number): MeterView[] {
  return meters.map((meter) => {
    const own = readings.filter((r) => r.meterId === meter.id).sort(byTakenAtDesc);
    return {
      meter,
      readings: own,
      latest: own.find((r) => r.status !== "rejected"),
      estimate: estimateOf(own, meter.nudgeDays, new Date(now)),
      needsReview: own.filter((r) => r.status === "review").length,
    };
  });
}

/** A thing's meters (`thingId`) or one meter (`meterId`), as this device shows them. */
export function useMeters(db: InventoryDb, locationId: string, of: { thingId: string } | { meterId: string }): MeterView[] | undefined {
  const key = "thingId" in of ? `t:${of.thingId}` : `m:${of.meterId}`;
  return useLive(async () => {
    const outbox = await db.outbox.orderBy("seq").toArray();
    const ops = outbox.filter((e) => e.state !== "rejected" && e.op.locationId === locationId && METER_OPS.has(e.op.name)).map((e) => e.op);
    const serverMeters = "thingId" in of ? await db.meters.where("thingId").equals(of.thingId).toArray() : [await db.meters.get(of.meterId)].filter((m) => !!m);
    // Meters made on this device have no server row yet; their readings are only in the outbox.
    const ids = new Set(serverMeters.map((m) => m.id));
    for (const op of ops) if (op.name === "meter.create") ids.add(op.args.id);
    const serverReadings = await db.readings
      .where("meterId")
      .anyOf([...ids])
      .toArray();
    // Reviews made on this device change their reading's status before the server's row comes back.
    const reviewed = new Set(ops.flatMap((op) => (op.name === "inbox.accept" || op.name === "inbox.dismiss" ? [op.args.id] : [])));
    const inbox = reviewed.size ? await db.inbox.bulkGet([...reviewed]) : [];
    const state = overlayMeters({ meters: serverMeters, readings: serverReadings, inbox: inbox.filter((i) => !!i) }, ops);
    const meters = [...state.meters.values()].filter((m) => ("thingId" in of ? m.thingId === of.thingId : m.id === of.meterId));
    return meterViews(meters, [...state.readings.values()], Date.now());
  }, [db, locationId, key]);
}

/**
 * Whether a new value would be doubted by the server (lower than the reading before it, or rising
 * faster than maxPerDay), and the reading it is judged against: the server keeps such a reading
 * but puts it in the inbox, so the person is told before saving.
 */
export function doubtOf(view: MeterView, value: string, takenAt: number): { reason: ReadingReason; neighbour: View<ReadingRow> } | null {
  return plausibility(view.readings, { id: "", value, offset: view.meter.offset || "0", takenAt }, view.meter.maxPerDay);
}

/** A reading's total (value + offset) as a decimal string: what the estimate and the chart follow. */
export const totalOf = (r: Pick<ReadingRow, "value" | "offset">): string => new Decimal(r.value).plus(r.offset || "0").toFixed();
