/**
 * Readings (issue #14): capture through REST and pushed ops, the plausibility check (backwards,
 * too_fast, a replaced counter, readings pushed out of order, earlier ops of the same push), the
 * `reading` inbox item and what accepting or dismissing it does, paged readings and proofs.
 */
import { eq, ne } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { inboxItemSchema } from "../../../shared/inbox.js";
import { proofSchema, readingSchema } from "../../../shared/meters.js";
import { files, locations, readings } from "../../../server/db/schema/index.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { HttpClient, TestService } from "../../support/app.js";
import { op, push } from "../../support/push.js";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 5, 1);
const day = (n: number) => new Date(T0 + n * DAY).toISOString();

async function newMeter(c: HttpClient, loc: string, body: Record<string, unknown> = {}) {
  const thing = await c.post(`/api/v1/locations/${loc}/things`, { name: "Meter cupboard" });
  const meter = await c.post(`/api/v1/things/${thing.body.id}/meters`, { kind: "water", unit: "m3", label: "Cold", ...body });
  expect(meter.status).toBe(201);
  return meter.body as { id: string; thingId: string };
}

const read = (c: HttpClient, meterId: string, value: string, takenAt: string, extra: Record<string, unknown> = {}) =>
  c.post(`/api/v1/meters/${meterId}/readings`, { value, takenAt, ...extra });

async function readingItems(c: HttpClient, loc: string, meterId: string) {
  const res = await c.get(`/api/v1/inbox?locationId=${loc}&kind=reading&limit=200`);
  expect(res.status).toBe(200);
  return (res.body.items as { reading: { meter: { id: string } } }[]).filter((i) => i.reading.meter.id === meterId) as any[];
}

async function fileIn(svc: TestService, locationId: string): Promise<string> {
  const id = uuidv7();
  await svc.database.db.insert(files).values({ id, locationId, sha256: "0".repeat(64), size: 1, mime: "image/png" });
  return id;
}

describe("reading capture", () => {
  test("POST answers the reading; takenAt defaults to now; values are decimal strings", async ({ loc, as }) => {
    const meter = await newMeter(as.member, loc);
    const before = Date.now();
    const res = await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value: "123.450" });
    expect(res.status).toBe(201);
    const r = readingSchema.parse(res.body);
    expect(r).toMatchObject({ meterId: meter.id, value: "123.45", offset: "0", fileId: null, thumbUrl: null, status: "ok", reason: null, rowVersion: 1 });
    expect(Date.parse(r.takenAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(r.takenAt)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(r.by.displayName).toBeTruthy();
    for (const value of ["-1", "1.0001", "1e3", "", "1234567890123456"])
      expect((await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value })).status, value).toBe(400);
    expect((await as.member.post(`/api/v1/meters/${meter.id}/readings`, { value: "999999999999999.999" })).status).toBe(201);
  });

  test("the same reading id twice is 409 through REST and a conflict when pushed again under another op", async ({ loc, as }) => {
    const meter = await newMeter(as.member, loc);
    const id = uuidv7();
    expect((await read(as.member, meter.id, "1", day(0), { id })).status).toBe(201);
    expect((await read(as.member, meter.id, "2", day(1), { id })).status).toBe(409);
    const again = await push(as.member, [op({ name: "reading.capture", locationId: loc, args: { id, meterId: meter.id, value: "1", takenAt: day(0) } })]);
    expect(again.body.results[0]).toMatchObject({ status: "dropped", reason: "conflict" });
    const list = await as.member.get(`/api/v1/meters/${meter.id}/readings`);
    expect(list.body.items).toHaveLength(1);
  });

  test("a proof must be a live file of the meter's location, else 404 file", async ({ svc, loc, as }) => {
    const meter = await newMeter(as.member, loc);
    const [other] = await svc.database.db.select({ id: locations.id }).from(locations).where(ne(locations.id, loc)).limit(1);
    const foreign = await fileIn(svc, other!.id);
    const res = await read(as.member, meter.id, "1", day(0), { fileId: foreign });
    expect(res.status).toBe(404);
    expect(res.body.error.message).toMatch(/file/);
    expect((await read(as.member, meter.id, "1", day(0), { fileId: uuidv7() })).status).toBe(404);
    const deleted = await fileIn(svc, loc);
    await svc.database.db.update(files).set({ deletedAt: new Date() }).where(eq(files.id, deleted));
    expect((await read(as.member, meter.id, "1", day(0), { fileId: deleted })).status).toBe(404);
    const own = await fileIn(svc, loc);
    const ok = await read(as.member, meter.id, "1", day(0), { fileId: own });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ fileId: own, thumbUrl: `/api/v1/files/${own}/thumb` });
  });

  test("a pushed reading of a meter of another location, or of a deleted meter, is dropped not_found", async ({ loc, as }) => {
    const meter = await newMeter(as.member, loc);
    const mine = await as.outsider.get("/api/v1/locations");
    const outsiderLoc = mine.body.items[0].id as string;
    const foreign = await push(as.outsider, [
      op({ name: "reading.capture", locationId: outsiderLoc, args: { id: uuidv7(), meterId: meter.id, value: "1", takenAt: day(0) } }),
    ]);
    expect(foreign.body.results[0]).toMatchObject({ status: "dropped", reason: "not_found" });
    expect((await as.member.delete(`/api/v1/meters/${meter.id}`, { rowVersion: 1 })).status).toBe(200);
    const late = await push(as.member, [
      op({ name: "reading.capture", locationId: loc, args: { id: uuidv7(), meterId: meter.id, value: "1", takenAt: day(0) } }),
    ]);
    expect(late.body.results[0]).toMatchObject({ status: "dropped", reason: "not_found" });
  });

  test("a reading of a meter whose thing was deleted meanwhile is refused as gone, through push and REST", async ({ loc, as }) => {
    const meter = await newMeter(as.member, loc);
    const thing = await as.member.get(`/api/v1/things/${meter.thingId}`);
    expect((await as.member.delete(`/api/v1/things/${meter.thingId}`, { rowVersion: thing.body.rowVersion })).status).toBe(200);
    const pushed = await push(as.member, [
      op({ name: "reading.capture", locationId: loc, args: { id: uuidv7(), meterId: meter.id, value: "5", takenAt: day(1) } }),
    ]);
    expect(pushed.body.results[0]).toMatchObject({ status: "dropped", reason: "deleted" });
    expect((await read(as.member, meter.id, "5", day(1))).status).toBe(410);
  });
});

describe("plausibility", () => {
  test("a reading lower than the one before goes to the inbox as backwards, with its neighbours and proof", async ({ svc, loc, as }) => {
    const meter = await newMeter(as.member, loc);
    expect((await read(as.member, meter.id, "100.5", day(0))).body.status).toBe("ok");
    const proof = await fileIn(svc, loc);
    const low = await read(as.member, meter.id, "99.9", day(1), { fileId: proof });
    expect(low.status).toBe(201);
    expect(low.body).toMatchObject({ status: "review", reason: "backwards" });
    const items = await readingItems(as.member, loc, meter.id);
    expect(items).toHaveLength(1);
    const item = inboxItemSchema.parse(items[0]);
    expect(item).toMatchObject({ kind: "reading", status: "open", thing: { id: meter.thingId } });
    expect(item.reading).toEqual({
      meter: { id: meter.id, label: "Cold", unit: "m3" },
      readingId: low.body.id,
      value: "99.9",
      takenAt: day(1),
      reason: "backwards",
      neighbours: { before: { value: "100.5", takenAt: day(0) } },
      proofThumbUrl: `/api/v1/files/${proof}/thumb`,
    });
    const m = (await as.member.get(`/api/v1/meters/${meter.id}`)).body;
    expect(m.needsReview).toBe(1);
    expect(m.latest).toEqual({ value: "99.9", takenAt: day(1) });
    // Only ok readings count for the estimate.
    expect(m.estimate.advice).toBe("unknown");
  });

  test("dismissing the item rejects the reading: it counts for nothing; accepting makes it ok", async ({ svc, loc, as }) => {
    const meter = await newMeter(as.member, loc);
    await read(as.member, meter.id, "50", day(0));
    const a = (await read(as.member, meter.id, "40", day(1))).body;
    const b = (await read(as.member, meter.id, "35", day(2))).body;
    expect([a.status, b.status]).toEqual(["review", "review"]);
    let m = (await as.member.get(`/api/v1/meters/${meter.id}`)).body;
    expect(m.needsReview).toBe(2);
    const items = await readingItems(as.member, loc, meter.id);
    const itemOf = (id: string) => items.find((i) => i.reading.readingId === id)!;
    expect((await as.viewer.post(`/api/v1/inbox/${itemOf(b.id).id}/dismiss`)).status).toBe(403);
    const dismissed = await as.member.post(`/api/v1/inbox/${itemOf(b.id).id}/dismiss`);
    expect(dismissed.status).toBe(200);
    expect(dismissed.body.item.status).toBe("dismissed");
    const [rb] = await svc.database.db.select().from(readings).where(eq(readings.id, b.id));
    expect(rb).toMatchObject({ status: "rejected", rowVersion: 2 });
    m = (await as.member.get(`/api/v1/meters/${meter.id}`)).body;
    expect(m.needsReview).toBe(1);
    expect(m.latest).toEqual({ value: "40", takenAt: day(1) });
    const accepted = await as.member.post(`/api/v1/inbox/${itemOf(a.id).id}/accept`);
    expect(accepted.status).toBe(200);
    m = (await as.member.get(`/api/v1/meters/${meter.id}`)).body;
    expect(m.needsReview).toBe(0);
    expect(m.latest).toEqual({ value: "40", takenAt: day(1) });
    const list = (await as.member.get(`/api/v1/meters/${meter.id}/readings`)).body.items;
    expect(list.map((r: { value: string; status: string; rowVersion: number }) => [r.value, r.status, r.rowVersion])).toEqual([
      ["35", "rejected", 2],
      ["40", "ok", 2],
      ["50", "ok", 1],
    ]);
    expect((await as.member.post(`/api/v1/inbox/${itemOf(a.id).id}/accept`)).status).toBe(409);
    // A rejected reading is no neighbour: 45 just before the rejected 35 is fine.
    expect((await read(as.member, meter.id, "45", day(1.5))).body.status).toBe("ok");
  });

  test("rising faster than maxPerDay is too_fast; at the rate exactly it is ok", async ({ loc, as }) => {
    const meter = await newMeter(as.member, loc, { maxPerDay: 0.1 });
    await read(as.member, meter.id, "0.1", day(0));
    // 0.3 over 3 days is 0.1 a day, the limit exactly; in floating point (0.4 - 0.1) / 3 is 0.10000000000000002, above it.
    expect((await read(as.member, meter.id, "0.4", day(3))).body).toMatchObject({ status: "ok", reason: null });
    expect((await read(as.member, meter.id, "0.501", day(4))).body).toMatchObject({ status: "review", reason: "too_fast" });
    const items = await readingItems(as.member, loc, meter.id);
    expect(items[0].reading).toMatchObject({ reason: "too_fast", neighbours: { before: { value: "0.4", takenAt: day(3) } }, proofThumbUrl: null });
  });

  test("a replaced counter (offset changed) may start lower: no backwards against the old offset", async ({ loc, as }) => {
    const meter = await newMeter(as.member, loc, { maxPerDay: 10 });
    await read(as.member, meter.id, "9000", day(0));
    expect((await as.member.patch(`/api/v1/meters/${meter.id}`, { offset: "9000", rowVersion: 1 })).status).toBe(200);
    // Total 9005 after 9000 a day before: ok on both counts.
    expect((await read(as.member, meter.id, "5", day(1))).body).toMatchObject({ status: "ok", offset: "9000" });
    // Against the new offset, backwards is checked again.
    expect((await read(as.member, meter.id, "4", day(2))).body).toMatchObject({ status: "review", reason: "backwards" });
    // The rate uses totals across offsets: 9000 + 30 is 25 a day over one day since 9005.
    expect((await read(as.member, meter.id, "30", day(3))).body).toMatchObject({ status: "review", reason: "too_fast" });
  });

  test("a reading pushed late with an older takenAt is checked against both neighbours", async ({ loc, as }) => {
    const meter = await newMeter(as.member, loc);
    await read(as.member, meter.id, "10", day(0));
    await read(as.member, meter.id, "20", day(10));
    const fits = uuidv7();
    const higher = uuidv7();
    const res = await push(as.member, [
      op({ name: "reading.capture", locationId: loc, args: { id: fits, meterId: meter.id, value: "15", takenAt: day(5) } }),
      op({ name: "reading.capture", locationId: loc, args: { id: higher, meterId: meter.id, value: "25", takenAt: day(7) } }),
    ]);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
    const list = (await as.member.get(`/api/v1/meters/${meter.id}/readings`)).body.items;
    expect(list.map((r: { value: string; status: string; reason: string | null }) => [r.value, r.status, r.reason])).toEqual([
      ["20", "ok", null],
      ["25", "review", "backwards"],
      ["15", "ok", null],
      ["10", "ok", null],
    ]);
    const [item] = await readingItems(as.member, loc, meter.id);
    // Its neighbour before is the one pushed just ahead of it in the same batch.
    expect(item.reading.neighbours).toEqual({ before: { value: "15", takenAt: day(5) }, after: { value: "20", takenAt: day(10) } });
    expect((await as.member.get(`/api/v1/meters/${meter.id}`)).body.latest).toEqual({ value: "20", takenAt: day(10) });
  });

  test("readings of one push are checked against the earlier ones of the same push, in any order", async ({ loc, as }) => {
    const meter = await newMeter(as.member, loc);
    const ids = [uuidv7(), uuidv7(), uuidv7()];
    const res = await push(as.member, [
      op({ name: "reading.capture", locationId: loc, args: { id: ids[0], meterId: meter.id, value: "30", takenAt: day(3) } }),
      op({ name: "reading.capture", locationId: loc, args: { id: ids[1], meterId: meter.id, value: "35", takenAt: day(1) } }),
      op({ name: "reading.capture", locationId: loc, args: { id: ids[2], meterId: meter.id, value: "20", takenAt: day(2) } }),
    ]);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied", "applied"]);
    const byId = new Map(
      (await as.member.get(`/api/v1/meters/${meter.id}/readings`)).body.items.map((r: { id: string; status: string; reason: string }) => [r.id, r.reason]),
    );
    // 35 on day 1 is above 30 on day 3 (its after); 20 on day 2 is below 35 on day 1 (its before).
    expect([byId.get(ids[0]), byId.get(ids[1]), byId.get(ids[2])]).toEqual([null, "backwards", "backwards"]);
  });
});

describe("paging", () => {
  test("readings and proofs come newest takenAt first, paged; limits at their bounds", async ({ svc, loc, as }) => {
    const meter = await newMeter(as.member, loc);
    const proofs: string[] = [];
    for (let i = 0; i < 5; i++) {
      const fileId = i % 2 === 0 ? await fileIn(svc, loc) : undefined;
      if (fileId) proofs.push(fileId);
      expect((await read(as.member, meter.id, String(i * 10), day(i), fileId ? { fileId } : {})).status).toBe(201);
    }
    const first = await as.viewer.get(`/api/v1/meters/${meter.id}/readings?limit=2`);
    expect(first.body.items.map((r: { value: string }) => r.value)).toEqual(["40", "30"]);
    const second = await as.viewer.get(`/api/v1/meters/${meter.id}/readings?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.items.map((r: { value: string }) => r.value)).toEqual(["20", "10"]);
    const third = await as.viewer.get(`/api/v1/meters/${meter.id}/readings?limit=2&cursor=${second.body.next_cursor}`);
    expect(third.body).toMatchObject({ items: [{ value: "0" }], next_cursor: null });
    expect((await as.viewer.get(`/api/v1/meters/${meter.id}/readings`)).body.items).toHaveLength(5);

    const p1 = await as.viewer.get(`/api/v1/meters/${meter.id}/proofs?limit=2`);
    expect(p1.status).toBe(200);
    expect(p1.body.items.map((p: unknown) => proofSchema.parse(p).value)).toEqual(["40", "20"]);
    expect(p1.body.items[0]).toMatchObject({ fileId: proofs[2], thumbUrl: `/api/v1/files/${proofs[2]}/thumb`, by: { displayName: expect.any(String) } });
    const p2 = await as.viewer.get(`/api/v1/meters/${meter.id}/proofs?limit=2&cursor=${p1.body.next_cursor}`);
    expect(p2.body).toMatchObject({ items: [{ value: "0", fileId: proofs[0] }], next_cursor: null });

    for (const path of ["readings", "proofs"]) {
      const base = `/api/v1/meters/${meter.id}/${path}`;
      expect((await as.viewer.get(`${base}?limit=0`)).status).toBe(400);
      expect((await as.viewer.get(`${base}?limit=1`)).status).toBe(200);
      expect((await as.viewer.get(`${base}?limit=200`)).status).toBe(200);
      expect((await as.viewer.get(`${base}?limit=201`)).status).toBe(400);
      // 2048 characters pass the limit and are then read as a cursor (this one is not one); 2049 do not pass.
      const atLimit = await as.viewer.get(`${base}?cursor=${"A".repeat(2048)}`);
      expect(atLimit.body.error.message).toMatch(/not a cursor this list gave out/);
      const past = await as.viewer.get(`${base}?cursor=${"A".repeat(2049)}`);
      expect(past.status).toBe(400);
      expect(past.body.error.message).not.toMatch(/not a cursor this list gave out/);
      expect((await as.viewer.get(`${base}?cursor=notacursor`)).body.error.code).toBe("validation_failed");
    }
  });
});
