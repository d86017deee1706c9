/**
 * Meters (issue #14, spec "Meter and proof", PATCH /meters/{id}): the REST routes and the pushed
 * ops, each "Meter update" limit at its bound and one past, roles, stale versions, the estimate.
 */
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { meterSchema } from "../../../shared/meters.js";
import { historyEntries, meters } from "../../../server/db/schema/index.js";
import { estimate } from "../../../server/modules/meters/estimate.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { HttpClient } from "../../support/app.js";
import { expectMalformedCursorsRefused, walkPages } from "../../support/paging.js";
import { op, push } from "../../support/push.js";

const DAY = 86_400_000;

async function thingIn(c: HttpClient, loc: string, name = "Boiler"): Promise<string> {
  const made = await c.post(`/api/v1/locations/${loc}/things`, { name });
  expect(made.status).toBe(201);
  return made.body.id;
}

async function meterOn(c: HttpClient, thingId: string, body: Record<string, unknown> = {}) {
  const res = await c.post(`/api/v1/things/${thingId}/meters`, { kind: "electricity", unit: "kWh", ...body });
  expect(res.status).toBe(201);
  return res.body;
}

describe("meter routes", () => {
  test("a member puts a meter on a thing; it is listed, read and answers the record shape", async ({ loc, as }) => {
    const thing = await thingIn(as.member, loc);
    const meter = await meterOn(as.member, thing, { label: "Main", maxPerDay: 50.5, nudgeDays: 30, offset: "12.250" });
    expect(meterSchema.parse(meter)).toMatchObject({
      thingId: thing,
      locationId: loc,
      kind: "electricity",
      unit: "kWh",
      label: "Main",
      needsReview: 0,
      maxPerDay: 50.5,
      offset: "12.25",
      rowVersion: 1,
      nudgeDays: 30,
      estimate: { perDay: null, basisDays: null, ageDays: null, advice: "none" },
    });
    expect(meter).not.toHaveProperty("latest");
    const list = await as.viewer.get(`/api/v1/things/${thing}/meters`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((m: { id: string }) => m.id)).toEqual([meter.id]);
    const one = await as.viewer.get(`/api/v1/meters/${meter.id}`);
    expect(one.body).toEqual(meter);
  });

  test("a thing's meters list pages with limit and cursor, oldest first; next_cursor is null on the last page", async ({ loc, as }) => {
    const thing = await thingIn(as.member, loc, "Heat pump");
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await meterOn(as.member, thing, { label: `M${i}` })).id);
    const walked = await walkPages<{ id: string }>(as.viewer, `/api/v1/things/${thing}/meters`, 2);
    expect(walked.pages).toBe(3);
    expect(walked.items.map((m) => m.id)).toEqual(made);
    expect((await as.viewer.get(`/api/v1/things/${thing}/meters`)).body.next_cursor).toBeNull();
    await expectMalformedCursorsRefused(as.viewer, `/api/v1/things/${thing}/meters`);
  });

  test("a client-made id is kept; the same id twice is 409", async ({ loc, as }) => {
    const thing = await thingIn(as.member, loc);
    const id = uuidv7();
    expect((await meterOn(as.member, thing, { id })).id).toBe(id);
    const again = await as.member.post(`/api/v1/things/${thing}/meters`, { id, kind: "water", unit: "m3" });
    expect(again.status).toBe(409);
  });

  test("viewers may read but not write (403); outsiders see nothing (404)", async ({ loc, as }) => {
    const thing = await thingIn(as.member, loc);
    const meter = await meterOn(as.member, thing);
    expect((await as.viewer.post(`/api/v1/things/${thing}/meters`, { kind: "gas", unit: "m3" })).status).toBe(403);
    expect((await as.viewer.patch(`/api/v1/meters/${meter.id}`, { label: "x", rowVersion: 1 })).status).toBe(403);
    expect((await as.viewer.delete(`/api/v1/meters/${meter.id}`, { rowVersion: 1 })).status).toBe(403);
    expect((await as.viewer.post(`/api/v1/meters/${meter.id}/readings`, { value: "1" })).status).toBe(403);
    for (const res of [
      await as.outsider.post(`/api/v1/things/${thing}/meters`, { kind: "gas", unit: "m3" }),
      await as.outsider.get(`/api/v1/things/${thing}/meters`),
      await as.outsider.get(`/api/v1/meters/${meter.id}`),
      await as.outsider.patch(`/api/v1/meters/${meter.id}`, { label: "x", rowVersion: 1 }),
      await as.outsider.delete(`/api/v1/meters/${meter.id}`, { rowVersion: 1 }),
      await as.outsider.post(`/api/v1/meters/${meter.id}/readings`, { value: "1" }),
      await as.outsider.get(`/api/v1/meters/${meter.id}/readings`),
      await as.outsider.get(`/api/v1/meters/${meter.id}/proofs`),
    ])
      expect(res.status).toBe(404);
    expect((await as.member.get(`/api/v1/meters/${uuidv7()}`)).status).toBe(404);
  });

  test("PATCH changes the fields, bumps the version, records history; a stale rowVersion is 409", async ({ svc, loc, as }) => {
    const thing = await thingIn(as.member, loc);
    const meter = await meterOn(as.member, thing);
    const res = await as.member.patch(`/api/v1/meters/${meter.id}`, { label: "Garage", maxPerDay: 12.345, nudgeDays: 7, offset: "100", rowVersion: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ label: "Garage", maxPerDay: 12.345, nudgeDays: 7, offset: "100", rowVersion: 2 });
    const stale = await as.member.patch(`/api/v1/meters/${meter.id}`, { label: "Shed", rowVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "version_conflict", details: { rowVersion: 2 } });
    const cleared = await as.member.patch(`/api/v1/meters/${meter.id}`, { maxPerDay: null, nudgeDays: null, label: null, rowVersion: 2 });
    expect(cleared.body).toMatchObject({ maxPerDay: null, nudgeDays: null, label: null, rowVersion: 3 });
    const history = await svc.database.db.select().from(historyEntries).where(eq(historyEntries.entityId, meter.id));
    expect(history.map((h) => h.action).sort()).toEqual(["meter.created", "meter.updated", "meter.updated"]);
    expect((await as.member.patch(`/api/v1/meters/${meter.id}`, { rowVersion: 3 })).status).toBe(400);
  });

  test("DELETE is a tombstone: the meter is gone from reads; a stale version is 409", async ({ loc, as }) => {
    const thing = await thingIn(as.member, loc);
    const meter = await meterOn(as.member, thing);
    expect((await as.member.delete(`/api/v1/meters/${meter.id}`, { rowVersion: 5 })).status).toBe(409);
    const gone = await as.member.delete(`/api/v1/meters/${meter.id}`, { rowVersion: 1 });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ id: meter.id, rowVersion: 2 });
    expect((await as.member.get(`/api/v1/meters/${meter.id}`)).status).toBe(404);
    expect((await as.member.get(`/api/v1/things/${thing}/meters`)).body.items).toEqual([]);
    expect((await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value: "1" })).status).toBe(404);
  });

  test("a meter on a deleted thing or an unknown thing is 404", async ({ loc, as }) => {
    const thing = await thingIn(as.member, loc);
    expect((await as.member.delete(`/api/v1/things/${thing}`, { rowVersion: 1 })).status).toBe(200);
    expect((await as.member.post(`/api/v1/things/${thing}/meters`, { kind: "gas", unit: "m3" })).status).toBe(404);
    expect((await as.member.post(`/api/v1/things/${uuidv7()}/meters`, { kind: "gas", unit: "m3" })).status).toBe(404);
  });
});

describe('Meter update limits (spec "Limits")', () => {
  const cases: [string, Record<string, unknown>, number][] = [
    ["label of 0 characters", { label: "" }, 400],
    ["label of 1 character", { label: "a" }, 200],
    ["label of 80 characters", { label: "a".repeat(80) }, 200],
    ["label of 81 characters", { label: "a".repeat(81) }, 400],
    ["maxPerDay 0", { maxPerDay: 0 }, 400],
    ["maxPerDay 0.001", { maxPerDay: 0.001 }, 200],
    ["maxPerDay 99999999999.999", { maxPerDay: 99999999999.999 }, 200],
    ["maxPerDay 100000000000", { maxPerDay: 100000000000 }, 400],
    ["maxPerDay 0.0005 (not a step of 0.001)", { maxPerDay: 0.0005 }, 400],
    ["maxPerDay negative", { maxPerDay: -1 }, 400],
    ["nudgeDays 6", { nudgeDays: 6 }, 400],
    ["nudgeDays 7", { nudgeDays: 7 }, 200],
    ["nudgeDays 365", { nudgeDays: 365 }, 200],
    ["nudgeDays 366", { nudgeDays: 366 }, 400],
    ["nudgeDays 7.5", { nudgeDays: 7.5 }, 400],
  ];
  for (const [what, patch, status] of cases)
    test(`${what}: ${status}`, async ({ loc, as }) => {
      const thing = await thingIn(as.member, loc);
      const meter = await meterOn(as.member, thing);
      const res = await as.member.patch(`/api/v1/meters/${meter.id}`, { ...patch, rowVersion: 1 });
      expect(res.status).toBe(status);
      if (status === 200) expect(res.body).toMatchObject(patch);
      else expect(res.body.error.code).toBe("validation_failed");
      // Creation takes the same rules.
      const made = await as.member.post(`/api/v1/things/${thing}/meters`, { kind: "water", unit: "m3", ...patch });
      expect(made.status).toBe(status === 200 ? 201 : 400);
    });

  test("the largest maxPerDay is kept exactly", async ({ svc, loc, as }) => {
    const thing = await thingIn(as.member, loc);
    const meter = await meterOn(as.member, thing, { maxPerDay: 99999999999.999 });
    const [row] = await svc.database.db.select({ v: meters.maxPerDay }).from(meters).where(eq(meters.id, meter.id));
    expect(row!.v).toBe("99999999999.999");
    expect(meter.maxPerDay).toBe(99999999999.999);
  });
});

describe("meter ops", () => {
  test("meter.create, update and delete pushed; a thing of another location or deleted meter is refused", async ({ loc, as }) => {
    const thing = await thingIn(as.member, loc);
    const id = uuidv7();
    const created = await push(as.member, [
      op({ name: "meter.create", locationId: loc, args: { id, thingId: thing, kind: "water", unit: "m3", nudgeDays: 14 } }),
      op({ name: "meter.update", locationId: loc, baseVersion: 1, args: { id, patch: { label: "Cold water" } } }),
    ]);
    expect(created.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
    expect((await as.member.get(`/api/v1/meters/${id}`)).body).toMatchObject({ label: "Cold water", nudgeDays: 14, rowVersion: 2 });
    const missing = await push(as.member, [op({ name: "meter.create", locationId: loc, args: { id: uuidv7(), thingId: uuidv7(), kind: "gas", unit: "m3" } })]);
    expect(missing.body.results[0]).toMatchObject({ status: "dropped", reason: "not_found" });
    const viewer = await push(as.viewer, [op({ name: "meter.update", locationId: loc, args: { id, patch: { label: "x" } } })]);
    expect(viewer.body.results[0]).toMatchObject({ status: "dropped", reason: "forbidden" });
    const deleted = await push(as.member, [
      op({ name: "meter.delete", locationId: loc, args: { id } }),
      op({ name: "meter.update", locationId: loc, args: { id, patch: { label: "late" } } }),
    ]);
    expect(deleted.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "dropped"]);
    expect(deleted.body.results[1].reason).toBe("deleted");
  });

  test("a stale pushed update merges field by field: another field applies, the same field is stale", async ({ loc, as }) => {
    const thing = await thingIn(as.member, loc);
    const meter = await meterOn(as.member, thing);
    expect((await as.admin.patch(`/api/v1/meters/${meter.id}`, { label: "Changed online", rowVersion: 1 })).status).toBe(200);
    const res = await push(as.member, [
      op({ name: "meter.update", locationId: loc, baseVersion: 1, args: { id: meter.id, patch: { nudgeDays: 30 } } }),
      op({ name: "meter.update", locationId: loc, baseVersion: 1, args: { id: meter.id, patch: { label: "Changed offline" } } }),
    ]);
    expect(res.body.results[0].status).toBe("applied");
    expect(res.body.results[1]).toMatchObject({ status: "dropped", reason: "stale" });
    expect((await as.member.get(`/api/v1/meters/${meter.id}`)).body).toMatchObject({ label: "Changed online", nudgeDays: 30, rowVersion: 3 });
  });
});

describe("estimate", () => {
  const at = (day: number) => new Date(Date.UTC(2026, 0, 1) + day * DAY);
  const p = (total: string, day: number) => ({ total, at: at(day) });

  test("per day is exact in decimals; advice follows the rule", () => {
    // 0.1 + 0.2 in floating point is 0.30000000000000004; here the rise over 3 days is 0.3.
    expect(estimate(p("0.1", 0), p("0.4", 3), 2, null, at(3))).toEqual({ perDay: "0.100", basisDays: 3, ageDays: 0, advice: "fresh" });
    expect(estimate(p("100.7", 0), p("101", 3), 3, null, at(4.5))).toEqual({ perDay: "0.100", basisDays: 3, ageDays: 1.5, advice: "fresh" });
    expect(estimate(null, null, 0, 7, at(0))).toEqual({ perDay: null, basisDays: null, ageDays: null, advice: "none" });
    expect(estimate(p("5", 0), p("5", 0), 1, null, at(2))).toMatchObject({ perDay: null, advice: "unknown", ageDays: 2 });
    // Less than a day between the two: no rate worth showing.
    expect(estimate(p("5", 0), p("6", 0.5), 2, null, at(0.5))).toMatchObject({ perDay: null, basisDays: 0.5, advice: "unknown" });
    expect(estimate(p("5", 0), p("15", 10), 2, 7, at(17))).toMatchObject({ perDay: "1.000", advice: "fresh" });
    expect(estimate(p("5", 0), p("15", 10), 2, 7, at(17.1))).toMatchObject({ perDay: "1.000", advice: "stale" });
    expect(estimate(p("5", 0), p("5", 0), 1, 7, at(30))).toMatchObject({ advice: "stale" });
    expect(estimate(p("0", 0), p("1", 3), 2, null, at(3)).perDay).toBe("0.333");
    expect(estimate(p("999999999999999.999", 0), p("999999999999999.999", 1), 2, null, at(1)).perDay).toBe("0.000");
  });

  test("the meter record's estimate uses the ok readings of the last 365 days, totals with the offset", async ({ loc, as }) => {
    const thing = await thingIn(as.member, loc);
    const meter = await meterOn(as.member, thing);
    const now = Date.now();
    const iso = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();
    // Outside the period (400 days before the latest): not counted.
    for (const [value, daysAgo] of [
      ["0", 402],
      ["10.1", 10],
      ["10.3", 8],
    ] as const)
      expect((await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value, takenAt: iso(daysAgo) })).status).toBe(201);
    let m = (await as.member.get(`/api/v1/meters/${meter.id}`)).body;
    expect(m.latest).toEqual({ value: "10.3", takenAt: iso(8) });
    expect(m.estimate).toEqual({ perDay: "0.100", basisDays: 2, ageDays: 8, advice: "fresh" });
    // The counter is replaced: offset 10.3, it starts again at 0.2 (total 10.5), two days later.
    expect((await as.member.patch(`/api/v1/meters/${meter.id}`, { offset: "10.3", rowVersion: 1 })).status).toBe(200);
    expect((await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value: "0.2", takenAt: iso(6) })).body).toMatchObject({
      status: "ok",
      offset: "10.3",
    });
    m = (await as.member.get(`/api/v1/meters/${meter.id}`)).body;
    expect(m.latest).toEqual({ value: "0.2", takenAt: iso(6) });
    expect(m.estimate).toMatchObject({ perDay: "0.100", basisDays: 4, ageDays: 6, advice: "fresh" });
  });
});
