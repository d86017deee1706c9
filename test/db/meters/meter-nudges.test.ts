/**
 * Nudges (issue #14): a meter whose latest counting reading is older than its nudgeDays gets one
 * `reading` inbox item (reason "overdue") in its location, once per stale reading; a new reading
 * re-arms it. The job is called here with the `now` it should see.
 */
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { NUDGE_REASON } from "../../../shared/meters.js";
import { meters, readings } from "../../../server/db/schema/index.js";
import { sendNudges } from "../../../server/modules/meters/nudges.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { HttpClient } from "../../support/app.js";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1);
const at = (n: number) => new Date(T0 + n * DAY);
const day = (n: number) => at(n).toISOString();

async function newMeter(c: HttpClient, loc: string, body: Record<string, unknown>) {
  const thing = await c.post(`/api/v1/locations/${loc}/things`, { name: "Tank" });
  const meter = await c.post(`/api/v1/things/${thing.body.id}/meters`, { kind: "oil", unit: "l", ...body });
  expect(meter.status).toBe(201);
  return meter.body as { id: string; thingId: string };
}

async function nudgesOf(c: HttpClient, loc: string, meterId: string) {
  const res = await c.get(`/api/v1/inbox?locationId=${loc}&kind=reading&limit=200`);
  return (res.body.items as any[]).filter((i) => i.reading.meter.id === meterId && i.reading.reason === NUDGE_REASON);
}

describe("meter nudges", () => {
  test("a stale meter nudges once, not again; a new reading re-arms it", async ({ svc, loc, as }) => {
    const db = svc.database.db;
    const meter = await newMeter(as.member, loc, { nudgeDays: 7, label: "Heating oil" });
    await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value: "800.5", takenAt: day(0) });
    await sendNudges(db, at(7));
    expect(await nudgesOf(as.member, loc, meter.id)).toHaveLength(0);
    expect(await sendNudges(db, at(7.01))).toBeGreaterThanOrEqual(1);
    const [item] = await nudgesOf(as.viewer, loc, meter.id);
    expect(item).toMatchObject({
      kind: "reading",
      locationId: loc,
      thing: { id: meter.thingId },
      reading: {
        meter: { id: meter.id, label: "Heating oil", unit: "l" },
        value: "800.5",
        takenAt: day(0),
        reason: "overdue",
        neighbours: {},
        proofThumbUrl: null,
      },
    });
    expect(item.reading).not.toHaveProperty("readingId");
    expect((await db.select({ n: meters.nudgedFor }).from(meters).where(eq(meters.id, meter.id)))[0]!.n).toEqual(at(0));
    await sendNudges(db, at(8));
    await sendNudges(db, at(60));
    expect(await nudgesOf(as.member, loc, meter.id)).toHaveLength(1);
    // The nudge is the server's bookkeeping: the meter's version did not move.
    expect((await as.member.patch(`/api/v1/meters/${meter.id}`, { label: "Oil", rowVersion: 1 })).status).toBe(200);

    // Resolving the nudge touches no reading.
    const accepted = await as.member.post(`/api/v1/inbox/${item.id}/accept`);
    expect(accepted.status).toBe(200);
    expect((await db.select({ s: readings.status, v: readings.rowVersion }).from(readings).where(eq(readings.meterId, meter.id)))[0]).toEqual({
      s: "ok",
      v: 1,
    });

    await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value: "750", takenAt: day(61) });
    // 750 after 800.5 is backwards: a reading in review does not re-arm the nudge.
    await sendNudges(db, at(70));
    expect(await nudgesOf(as.member, loc, meter.id)).toHaveLength(0);
    await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value: "900", takenAt: day(62) });
    await sendNudges(db, at(68.9));
    expect(await nudgesOf(as.member, loc, meter.id)).toHaveLength(0);
    await sendNudges(db, at(69.1));
    const again = await nudgesOf(as.member, loc, meter.id);
    expect(again).toHaveLength(1);
    expect(again[0].reading).toMatchObject({ value: "900", takenAt: day(62) });
    await sendNudges(db, at(100));
    expect(await nudgesOf(as.member, loc, meter.id)).toHaveLength(1);
  });

  test("no nudge without nudgeDays, without a counting reading, or for a deleted meter", async ({ svc, loc, as }) => {
    const db = svc.database.db;
    const plain = await newMeter(as.member, loc, {});
    await as.member.post(`/api/v1/meters/${plain.id}/readings`, { value: "1", takenAt: day(0) });
    const empty = await newMeter(as.member, loc, { nudgeDays: 7 });
    const gone = await newMeter(as.member, loc, { nudgeDays: 7 });
    await as.member.post(`/api/v1/meters/${gone.id}/readings`, { value: "1", takenAt: day(0) });
    expect((await as.member.delete(`/api/v1/meters/${gone.id}`, { rowVersion: 1 })).status).toBe(200);
    await sendNudges(db, at(400));
    for (const m of [plain, empty, gone]) expect(await nudgesOf(as.owner, loc, m.id)).toHaveLength(0);
  });

  test("the meter record says stale once the latest reading is older than nudgeDays", async ({ loc, as }) => {
    const meter = await newMeter(as.member, loc, { nudgeDays: 7 });
    const now = Date.now();
    await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value: "10", takenAt: new Date(now - 20 * DAY).toISOString() });
    await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value: "12", takenAt: new Date(now - 6 * DAY).toISOString() });
    expect((await as.member.get(`/api/v1/meters/${meter.id}`)).body.estimate).toMatchObject({ perDay: "0.143", basisDays: 14, ageDays: 6, advice: "fresh" });
    await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value: "9", takenAt: new Date(now - 5 * DAY).toISOString() });
    // In review, it does not count: the estimate is unchanged.
    expect((await as.member.get(`/api/v1/meters/${meter.id}`)).body).toMatchObject({ needsReview: 1, estimate: { advice: "fresh", ageDays: 6 } });
    const stale = await newMeter(as.member, loc, { nudgeDays: 7 });
    await as.member.post(`/api/v1/meters/${stale.id}/readings`, { value: "10", takenAt: new Date(now - 30 * DAY).toISOString() });
    await as.member.post(`/api/v1/meters/${stale.id}/readings`, { value: "11", takenAt: new Date(now - 8 * DAY).toISOString() });
    expect((await as.member.get(`/api/v1/meters/${stale.id}`)).body.estimate).toMatchObject({ perDay: "0.045", advice: "stale" });
  });
});
