import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { InboxRow, MeterRow, ReadingRow } from "../../../client/db/rows.js";
import { InventoryDb } from "../../../client/db/database.js";
import { withoutFailedPhotos } from "../../../client/sync/blob-upload.js";
import { queueReading } from "../../../client/ops/meters/queue.js";
import { overlayMeters } from "../../../client/sync/meter-overlay.js";
import { doubtOf, meterViews, totalOf } from "../../../client/features/meters/MeterData.js";
import { decimalText } from "../../../client/features/meters/MeterFormat.js";
import { estimateOf, ESTIMATE_PERIOD_DAYS } from "../../../shared/meter-rules.js";
import type { Op } from "../../../sync/ops.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const THING = "0190a000-0000-7000-8000-000000000002";
const METER = "0190a000-0000-7000-8000-000000000003";
const DAY = 86_400_000;
const T0 = Date.parse("2026-11-01T00:00:00Z");
const iso = (days: number) => new Date(T0 + days * DAY).toISOString();
let n = 0;
const id = () => `0190a000-0000-7000-8000-${String(++n + 100).padStart(12, "0")}`;

const meterRow = (over: Partial<MeterRow> = {}): MeterRow => ({
  id: METER,
  locationId: LOC,
  thingId: THING,
  kind: "electricity",
  unit: "kWh",
  label: "Main",
  offset: "0.000",
  maxPerDay: null,
  nudgeDays: null,
  nudgedFor: null,
  createdBy: null,
  rowVersion: 3,
  createdAt: iso(0),
  updatedAt: iso(0),
  deletedAt: null,
  ...over,
});

const reading = (value: string, days: number, over: Partial<ReadingRow> = {}): ReadingRow => ({
  id: id(),
  locationId: LOC,
  meterId: METER,
  value,
  offset: "0.000",
  takenAt: iso(days),
  fileId: null,
  status: "ok",
  reason: null,
  createdBy: null,
  rowVersion: 1,
  createdAt: iso(days),
  updatedAt: iso(days),
  deletedAt: null,
  ...over,
});

const op = <N extends Op["name"]>(name: N, args: Extract<Op, { name: N }>["args"]): Op => ({ id: id(), at: iso(10), name, locationId: LOC, args }) as Op;

const estimateMeter = (rs: ReadingRow[], nudgeDays: number | null, now: number) => estimateOf(rs, nudgeDays, new Date(now));

describe("meter estimate on the device (the server's rule, over the readings the device holds)", () => {
  it("answers none with no counting reading and unknown with a single one", () => {
    expect(estimateMeter([], 30, T0)).toEqual({ perDay: null, basisDays: null, ageDays: null, advice: "none" });
    expect(estimateMeter([reading("9", 0, { status: "review" })], 30, T0)).toMatchObject({ advice: "none" });
    expect(estimateMeter([reading("5", 0)], null, T0 + 2 * DAY)).toEqual({ perDay: null, basisDays: null, ageDays: 2, advice: "unknown" });
  });

  it("works per day in decimals from the first reading of the period, counting only ok readings", () => {
    const rs = [
      reading("100.1", 0),
      reading("100.2", 3),
      reading("999", 5, { status: "rejected" }),
      reading("1", 5, { status: "review" }),
      reading("100.4", 4),
    ];
    // 0.3 over 4 days is 0.075: a float division would print 0.07499999999999996.
    expect(estimateMeter(rs, null, T0 + 4 * DAY)).toEqual({ perDay: "0.075", basisDays: 4, ageDays: 0, advice: "fresh" });
  });

  it("counts the offset of a replaced counter, so the rise goes on across the swap", () => {
    const rs = [reading("900", 0), reading("10", 10, { offset: "900" })];
    expect(estimateMeter(rs, null, T0 + 10 * DAY).perDay).toBe("1.000");
  });

  it("looks back 365 days from the latest reading, not from now", () => {
    const rs = [reading("0", 0), reading("10", 10), reading("375", 10 + ESTIMATE_PERIOD_DAYS)];
    expect(estimateMeter(rs, null, T0 + 1000 * DAY)).toMatchObject({
      perDay: "1.000",
      basisDays: ESTIMATE_PERIOD_DAYS,
      ageDays: 1000 - 10 - ESTIMATE_PERIOD_DAYS,
    });
    // One day further, the reading at day 10 leaves the period and the latest is alone: no basis.
    const alone = [reading("0", 0), reading("10", 10), reading("375", 11 + ESTIMATE_PERIOD_DAYS)];
    expect(estimateMeter(alone, null, T0 + 1000 * DAY)).toMatchObject({ perDay: null, basisDays: null, advice: "unknown" });
  });

  it("needs a basis of at least a day: readings minutes apart give no rate", () => {
    const minutes = [reading("1200.5", 5), reading("1250.25", 5.001), reading("1260", 5.002)];
    expect(estimateMeter(minutes, null, T0 + 6 * DAY)).toMatchObject({ perDay: null, basisDays: 0, advice: "unknown" });
    expect(estimateMeter([reading("10", 4), reading("12", 5)], null, T0 + 6 * DAY)).toMatchObject({ perDay: "2.000", basisDays: 1, advice: "fresh" });
  });

  it("is stale past nudgeDays and fresh at nudgeDays; stale outranks unknown", () => {
    const rs = [reading("1", 0), reading("2", 1)];
    expect(estimateMeter(rs, 7, T0 + 8 * DAY).advice).toBe("fresh");
    expect(estimateMeter(rs, 7, T0 + 8 * DAY + 1).advice).toBe("stale");
    expect(estimateMeter([reading("1", 0)], 7, T0 + 9 * DAY)).toMatchObject({ advice: "stale", ageDays: 9 });
  });

  it("reads the Postgres text timestamps shapes carry", () => {
    const rs = [reading("1", 0, { takenAt: "2026-11-01 00:00:00+00" }), reading("3", 0, { takenAt: "2026-11-03 00:00:00.5+00" })];
    expect(estimateMeter(rs, null, T0 + 2 * DAY).perDay).toBe("1.000");
  });
});

describe("meters overlay", () => {
  it("shows a meter made on the device and its readings at once, pending, and deleting it hides both", () => {
    const NEW = "0190a000-0000-7000-8000-0000000000ee";
    const ops = [
      op("meter.create", { id: NEW, thingId: THING, kind: "water", unit: " m³ ", label: "Garden", maxPerDay: 1.5, nudgeDays: 30 }),
      op("reading.capture", {
        id: "0190a000-0000-7000-8000-0000000000ef",
        meterId: NEW,
        value: "12.5",
        takenAt: iso(10),
        fileId: "0190a000-0000-7000-8000-0000000000f0",
      }),
    ];
    const state = overlayMeters({ meters: [], readings: [] }, ops);
    expect(state.meters.get(NEW)).toMatchObject({ unit: "m³", label: "Garden", maxPerDay: "1.5", nudgeDays: 30, offset: "0", pending: true, rowVersion: 0 });
    expect(state.readings.get("0190a000-0000-7000-8000-0000000000ef")).toMatchObject({
      value: "12.5",
      status: "ok",
      pending: true,
      fileId: "0190a000-0000-7000-8000-0000000000f0",
    });
    const gone = overlayMeters({ meters: [], readings: [] }, [...ops, op("meter.delete", { id: NEW })]);
    expect(gone.meters.size).toBe(0);
    expect(gone.readings.size).toBe(0);
  });

  it("applies an update over the server's row and files a later reading under the new offset", () => {
    const state = overlayMeters({ meters: [meterRow()], readings: [reading("5", 0)] }, [
      op("meter.update", { id: METER, patch: { label: null, offset: "-20", maxPerDay: null } }),
      op("reading.capture", { id: "0190a000-0000-7000-8000-0000000000fa", meterId: METER, value: "30", takenAt: iso(1) }),
    ]);
    expect(state.meters.get(METER)).toMatchObject({ label: null, offset: "-20", maxPerDay: null, unit: "kWh", pending: true });
    expect(state.readings.get("0190a000-0000-7000-8000-0000000000fa")?.offset).toBe("-20");
    expect(state.readings.size).toBe(2);
  });
});

describe("reviews made on this device", () => {
  it("accepting a reading item makes its reading count, dismissing rejects it; a nudge changes no reading", () => {
    const doubted = reading("5", 2, { status: "review", reason: "backwards" });
    const item = (itemId: string, readingId?: string) =>
      ({
        id: itemId,
        locationId: LOC,
        kind: "reading",
        status: "open",
        payload: {
          reading: {
            meter: { id: METER, label: null, unit: "kWh" },
            ...(readingId ? { readingId: readingId.toUpperCase() } : {}),
            value: "5",
            takenAt: iso(2),
            reason: "backwards",
            neighbours: {},
            proofThumbUrl: null,
          },
        },
      }) as unknown as InboxRow;
    const ITEM = "0190a000-0000-7000-8000-0000000000d1";
    const NUDGE = "0190a000-0000-7000-8000-0000000000d2";
    const server = { meters: [meterRow()], readings: [reading("9", 1), doubted], inbox: [item(ITEM, doubted.id), item(NUDGE)] };
    expect(overlayMeters(server, [op("inbox.accept", { id: ITEM })]).readings.get(doubted.id)).toMatchObject({ status: "ok", pending: true });
    expect(overlayMeters(server, [op("inbox.dismiss", { id: ITEM })]).readings.get(doubted.id)).toMatchObject({ status: "rejected", pending: true });
    const nudged = overlayMeters(server, [op("inbox.accept", { id: NUDGE })]);
    expect([...nudged.readings.values()].map((r) => [r.status, r.pending])).toEqual([
      ["ok", undefined],
      ["review", undefined],
    ]);
  });
});

describe("doubt before saving (the server's plausibility rule)", () => {
  const view = (rs: ReadingRow[], meter = meterRow()) => meterViews([meter], rs, T0 + 10 * DAY)[0]!;
  it("doubts a value lower than the reading before it, comparing decimals", () => {
    const v = view([reading("1250.25", 2), reading("1200.5", 1), reading("9999", 0, { status: "rejected" })]);
    expect(doubtOf(v, "1250.2", T0 + 3 * DAY)).toMatchObject({ reason: "backwards", neighbour: { value: "1250.25" } });
    expect(doubtOf(v, "1250.250", T0 + 3 * DAY)).toBeNull();
    // Taken between the two: higher than the one after it is as wrong as lower than the one before.
    expect(doubtOf(v, "1201", T0 + 1.5 * DAY)).toBeNull();
    expect(doubtOf(v, "1250.26", T0 + 1.5 * DAY)).toMatchObject({ reason: "backwards", neighbour: { value: "1250.25" } });
    expect(doubtOf(v, "1200.4", T0 + 1.5 * DAY)).toMatchObject({ reason: "backwards", neighbour: { value: "1200.5" } });
  });

  it("does not doubt a drop after the offset changed, nor one against a rejected reading", () => {
    expect(doubtOf(view([reading("500", 1)], meterRow({ offset: "500" })), "3", T0 + 2 * DAY)).toBeNull();
    expect(doubtOf(view([reading("500", 1, { status: "rejected" })]), "3", T0 + 2 * DAY)).toBeNull();
  });

  it("doubts a rise faster than maxPerDay, and allows one at it", () => {
    const v = view([reading("100", 1)], meterRow({ maxPerDay: "10.000" }));
    expect(doubtOf(v, "120", T0 + 3 * DAY)).toBeNull();
    expect(doubtOf(v, "120.001", T0 + 3 * DAY)).toMatchObject({ reason: "too_fast", neighbour: { value: "100" } });
  });

  it("marks a pending reading the server will doubt as waiting for review at once", () => {
    const ops = [
      op("reading.capture", { id: "0190a000-0000-7000-8000-0000000000c1", meterId: METER, value: "1250.25", takenAt: iso(2) }),
      op("reading.capture", { id: "0190a000-0000-7000-8000-0000000000c2", meterId: METER, value: "1240", takenAt: iso(3) }),
    ];
    const state = overlayMeters({ meters: [meterRow()], readings: [reading("1200.5", 1)] }, ops);
    expect(state.readings.get("0190a000-0000-7000-8000-0000000000c1")).toMatchObject({ status: "ok", reason: null });
    expect(state.readings.get("0190a000-0000-7000-8000-0000000000c2")).toMatchObject({ status: "review", reason: "backwards" });
    expect(meterViews([meterRow()], [...state.readings.values()], T0 + 4 * DAY)[0]!.needsReview).toBe(1);
  });
});

describe("decimal text", () => {
  const en = { num: (x: number) => new Intl.NumberFormat("en").format(x) };
  const ar = { num: (x: number) => new Intl.NumberFormat("ar-u-nu-arab").format(x) };
  it("keeps every digit of the stored string, in the person's digits, with trailing zeros of the fraction gone", () => {
    expect(decimalText("123456789012345.123", en)).toBe("123,456,789,012,345.123");
    expect(decimalText("1240.000", en)).toBe("1,240");
    expect(decimalText("0.500", en)).toBe("0.5");
    expect(decimalText("-20", en)).toBe("-20");
    expect(decimalText("1250.25", ar)).toBe("١٬٢٥٠٫٢٥");
    // The chart's totals (value + offset) are decimals too, labelled the same way.
    expect(totalOf({ value: "10.000", offset: "-900.500" })).toBe("-890.5");
    expect(decimalText(totalOf({ value: "99999999999999.999", offset: "0.001" }), en)).toBe("100,000,000,000,000");
  });
});

describe("a reading's photo proof in the outbox", () => {
  it("is kept beside the op, named as its fileId, and left out of the op if the server refused it for good", async () => {
    const db = new InventoryDb(`meters-${Math.random()}`);
    const photo = new Blob(["png"], { type: "image/png" });
    await queueReading(db, { id: METER, locationId: LOC }, { value: "12.5", takenAt: iso(1), photo });
    const [entry] = await db.outbox.toArray();
    const op = entry!.op as Extract<Op, { name: "reading.capture" }>;
    expect(op.args.fileId).toBeDefined();
    expect(entry!.blobIds).toEqual([op.args.fileId]);
    // Not one of the thing's photos: a proof belongs to its reading.
    expect(await db.blobs.get(op.args.fileId!)).toMatchObject({ state: "local", thingId: null, locationId: LOC });
    expect(await withoutFailedPhotos(db, entry!)).toEqual(op);
    await db.blobs.update(op.args.fileId!, { state: "failed" });
    const sent = (await withoutFailedPhotos(db, entry!)) as typeof op;
    expect(sent.args).toEqual({ id: op.args.id, meterId: METER, value: "12.5", takenAt: iso(1) });
    db.close();
  });
});
