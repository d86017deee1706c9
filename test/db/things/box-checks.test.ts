/**
 * Box checks (spec "Box check", GET /things/{id}/box-checks): what a person at an open box found,
 * as a pushed op or a REST write. Two devices checking the same box offline end in the same state
 * whatever order their pushes arrive in, and both checks are kept.
 */
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { things } from "../../../server/db/schema/index.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

const make = async (c: Client, loc: string, body: Record<string, unknown>) => {
  const res = await c.post(`/api/v1/locations/${loc}/things`, body);
  expect(res.status).toBe(201);
  return res.body.id as string;
};

/** A box with three things in it. */
async function boxOfThree(c: Client, loc: string) {
  const box = await make(c, loc, { name: "Box", isContainer: true });
  const [a, b, d] = [
    await make(c, loc, { name: "A", containerId: box }),
    await make(c, loc, { name: "B", containerId: box }),
    await make(c, loc, { name: "C", containerId: box }),
  ];
  return { box, a: a, b: b, c: d };
}

const state = async (c: Client, id: string) => {
  const t = (await c.get(`/api/v1/things/${id}`)).body;
  return { lastSeenAt: t.lastSeenAt, uncertain: t.derivedState.includes("uncertain"), containerId: t.containerId };
};

const check = (loc: string, containerId: string, findings: Record<string, unknown>) =>
  op({ name: "boxcheck.record", locationId: loc, args: { id: uuidv7(), containerId, seen: [], notHere: [], split: [], movedIn: [], ...findings } });

describe("box checks", () => {
  test("two devices check the same box offline with different findings: either push order ends the same, both checks kept", async ({ loc, as }) => {
    const t1 = "2027-03-01T10:00:00.000Z";
    const t2 = "2027-03-01T11:00:00.000Z";
    const finals = [];
    for (const order of ["first-second", "second-first"]) {
      const s = await boxOfThree(as.member, loc);
      const first = check(loc, s.box, { at: t1, seen: [s.a], notHere: [s.b], split: [{ thingId: s.c, quantity: "2" }] });
      const second = check(loc, s.box, { at: t2, seen: [s.b], notHere: [s.a, s.c] });
      const pushes =
        order === "first-second"
          ? [
              [as.member, first],
              [as.admin, second],
            ]
          : [
              [as.admin, second],
              [as.member, first],
            ];
      for (const [client, o] of pushes as [Client, ReturnType<typeof op>][]) {
        const res = await push(client, [o], client === as.member ? "phone" : "tablet");
        expect(res.body.results[0].status).toBe("applied");
      }
      const list = await as.member.get(`/api/v1/things/${s.box}/box-checks`);
      expect(list.body.items.map((i: { at: string }) => i.at)).toEqual([t2, t1]);
      expect(list.body.items[1]).toMatchObject({ seen: 1, notHere: 1, split: 1, movedIn: 0, containerId: s.box, by: { displayName: "Member Person" } });
      // Each round has its own box: the states compare without the box's id.
      const of = async (id: string) => ({ ...(await state(as.member, id)), containerId: null });
      finals.push({ box: await of(s.box), a: await of(s.a), b: await of(s.b), c: await of(s.c) });
    }
    expect(finals[0]).toEqual(finals[1]);
    // A and C were missed after their last sighting; B was seen last.
    expect(finals[0]).toMatchObject({
      box: { lastSeenAt: t2, uncertain: false },
      a: { uncertain: true },
      b: { lastSeenAt: t2, uncertain: false },
      c: { uncertain: true },
    });
  });

  test("three checks (missed, seen, missed again) in every push order: uncertain since the miss after the sighting", async ({ svc, loc, as }) => {
    const svcMissing = async (id: string) =>
      (await svc.database.db.select({ m: things.missingSince }).from(things).where(eq(things.id, id)))[0]!.m?.toISOString() ?? null;
    const n1 = "2027-07-01T08:00:00.000Z";
    const s1 = "2027-07-02T08:00:00.000Z";
    const n2 = "2027-07-03T08:00:00.000Z";
    const orders = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    for (const order of orders) {
      const s = await boxOfThree(as.member, loc);
      const checks = [check(loc, s.box, { at: n1, notHere: [s.a] }), check(loc, s.box, { at: s1, seen: [s.a] }), check(loc, s.box, { at: n2, notHere: [s.a] })];
      for (const i of order) expect((await push(as.member, [checks[i]!])).body.results[0].status).toBe("applied");
      expect(await state(as.member, s.a), `order ${order.join(",")}`).toMatchObject({ lastSeenAt: s1, uncertain: true });
      const row = await svcMissing(s.a);
      expect(row, `order ${order.join(",")}`).toBe(n2);
    }
  });

  test("not here, then an earlier-dated sighting, stays uncertain; a later sighting clears it; the thing is kept", async ({ loc, as }) => {
    const s = await boxOfThree(as.member, loc);
    const rec = (at: string, f: Record<string, unknown>) => as.member.post(`/api/v1/things/${s.box}/box-checks`, { at, ...f });
    expect((await rec("2027-04-02T09:00:00Z", { notHere: [s.a] })).status).toBe(201);
    expect(await state(as.member, s.a)).toMatchObject({ uncertain: true, containerId: s.box });
    expect((await rec("2027-04-01T09:00:00Z", { seen: [s.a] })).status).toBe(201);
    expect((await state(as.member, s.a)).uncertain).toBe(true);
    expect((await rec("2027-04-03T09:00:00Z", { seen: [s.a] })).status).toBe(201);
    expect(await state(as.member, s.a)).toEqual({ uncertain: false, lastSeenAt: "2027-04-03T09:00:00.000Z", containerId: s.box });
    // The things list still has it (kept, never deleted) and the checks that named it are its checks.
    const named = await as.member.get(`/api/v1/things/${s.a}/box-checks`);
    expect(named.body.items).toHaveLength(3);
  });

  test("a thing found in the box is moved into it, its history says moved in from elsewhere; again is no move", async ({ loc, as }) => {
    const s = await boxOfThree(as.member, loc);
    const stray = await make(as.member, loc, { name: "Stray drill" });
    const before = (await as.member.get(`/api/v1/things/${stray}`)).body.rowVersion;
    const res = await as.member.post(`/api/v1/things/${s.box}/box-checks`, { at: "2027-05-01T12:00:00Z", movedIn: [stray] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ movedIn: 1, seen: 0 });
    const moved = (await as.member.get(`/api/v1/things/${stray}`)).body;
    expect(moved).toMatchObject({ containerId: s.box, placeId: null, lastSeenAt: "2027-05-01T12:00:00.000Z", rowVersion: before + 1 });
    const history = (await as.member.get(`/api/v1/things/${stray}/history`)).body.items;
    expect(history[0]).toMatchObject({ movedInFromElsewhere: true });
    const again = await as.member.post(`/api/v1/things/${s.box}/box-checks`, { at: "2027-05-01T12:30:00Z", movedIn: [stray] });
    expect(again.status).toBe(201);
    expect((await as.member.get(`/api/v1/things/${stray}/history`)).body.items).toHaveLength(history.length);
  });

  test("the box's own holder named as moved in is not put inside the box: it counts as seen", async ({ loc, as }) => {
    const outer = await make(as.member, loc, { name: "Crate", isContainer: true });
    const inner = await make(as.member, loc, { name: "Tin", isContainer: true, containerId: outer });
    const res = await as.member.post(`/api/v1/things/${inner}/box-checks`, { movedIn: [outer] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ seen: 1, movedIn: 0 });
    expect((await as.member.get(`/api/v1/things/${outer}`)).body.containerId).toBeNull();
  });

  test("two checks in one push that would put two boxes inside each other: the first moves, the second only sees", async ({ loc, as }) => {
    const a = await make(as.member, loc, { name: "Crate A", isContainer: true });
    const b = await make(as.member, loc, { name: "Crate B", isContainer: true });
    const at = new Date().toISOString();
    const res = await push(as.member, [check(loc, a, { at, movedIn: [b] }), check(loc, b, { at, movedIn: [a] })]);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
    expect((await as.member.get(`/api/v1/things/${b}`)).body.containerId).toBe(a);
    expect((await as.member.get(`/api/v1/things/${a}`)).body.containerId).toBeNull();
    expect((await as.member.get(`/api/v1/things/${a}/box-checks`)).body.items.find((i: { containerId: string }) => i.containerId === b)).toMatchObject({
      seen: 1,
      movedIn: 0,
    });
  });

  test("what a check may name: a container of the op's location, things of it; a deleted thing is skipped", async ({ loc, as }) => {
    const s = await boxOfThree(as.member, loc);
    const plain = await make(as.member, loc, { name: "Hammer" });
    expect((await as.member.post(`/api/v1/things/${plain}/box-checks`, { seen: [] })).status).toBe(400);
    const other = await make(as.outsider, (await as.outsider.get("/api/v1/me")).body.locations[0].id, { name: "Not yours" });
    const ghost = uuidv7();
    for (const id of [other, ghost]) {
      const res = await as.member.post(`/api/v1/things/${s.box}/box-checks`, { seen: [id] });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toContain(id);
    }
    const pushed = await push(as.member, [check(loc, s.box, { at: new Date().toISOString(), seen: [ghost] })]);
    expect(pushed.body.results[0]).toMatchObject({ status: "dropped", reason: "not_found" });
    const gone = await make(as.member, loc, { name: "Thrown away" });
    const { rowVersion } = (await as.member.get(`/api/v1/things/${gone}`)).body;
    expect((await as.member.delete(`/api/v1/things/${gone}`, { rowVersion })).status).toBe(200);
    const res = await as.member.post(`/api/v1/things/${s.box}/box-checks`, { seen: [s.a, gone], notHere: [s.b] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ seen: 1, notHere: 1 });
    expect((await as.member.post(`/api/v1/things/${s.box}/box-checks`, { seen: [s.box] })).status).toBe(400);
    expect((await as.member.post(`/api/v1/things/${s.box}/box-checks`, { seen: [s.a], notHere: [s.a] })).status).toBe(400);
  });

  test("roles: a viewer cannot record, an outsider cannot see the box; a replayed op is one check", async ({ loc, as }) => {
    const s = await boxOfThree(as.member, loc);
    expect((await as.viewer.post(`/api/v1/things/${s.box}/box-checks`, { seen: [s.a] })).status).toBe(403);
    expect((await as.outsider.post(`/api/v1/things/${s.box}/box-checks`, { seen: [s.a] })).status).toBe(404);
    expect((await as.outsider.get(`/api/v1/things/${s.box}/box-checks`)).status).toBe(404);
    expect((await as.viewer.get(`/api/v1/things/${s.box}/box-checks`)).status).toBe(200);
    const o = check(loc, s.box, { at: new Date().toISOString(), seen: [s.a] });
    await push(as.member, [o]);
    await push(as.member, [o]);
    expect((await as.member.get(`/api/v1/things/${s.box}/box-checks`)).body.items).toHaveLength(1);
  });

  test("limits: limit 1 to 200, cursor at most 2048 characters, paging newest first", async ({ loc, as }) => {
    const s = await boxOfThree(as.member, loc);
    for (const at of ["2027-01-01T00:00:00Z", "2027-01-02T00:00:00Z", "2027-01-03T00:00:00Z"])
      expect((await as.member.post(`/api/v1/things/${s.box}/box-checks`, { at, seen: [s.a] })).status).toBe(201);
    const url = (q: string) => `/api/v1/things/${s.box}/box-checks?${q}`;
    expect((await as.member.get(url("limit=0"))).status).toBe(400);
    expect((await as.member.get(url("limit=201"))).status).toBe(400);
    expect((await as.member.get(url("limit=200"))).body.items).toHaveLength(3);
    const first = await as.member.get(url("limit=1"));
    expect(first.body.items[0].at).toBe("2027-01-03T00:00:00.000Z");
    const second = await as.member.get(url(`limit=1&cursor=${first.body.next_cursor}`));
    expect(second.body.items[0].at).toBe("2027-01-02T00:00:00.000Z");
    // The same cursor, padded with JSON whitespace to exactly 2048 characters (1536 bytes).
    const key = JSON.parse(Buffer.from(first.body.next_cursor, "base64url").toString());
    const json = JSON.stringify(key);
    const cursor = Buffer.from(json + " ".repeat(1536 - json.length)).toString("base64url");
    expect(cursor).toHaveLength(2048);
    const padded = await as.member.get(url(`limit=1&cursor=${cursor}`));
    expect(padded.status).toBe(200);
    expect(padded.body.items[0].at).toBe("2027-01-02T00:00:00.000Z");
    expect((await as.member.get(url(`limit=1&cursor=${cursor}A`))).status).toBe(400);
  });

  test("a check names at most 2000 things", async ({ loc, as }) => {
    const box = await make(as.member, loc, { name: "Screw crate", isContainer: true });
    const ids = Array.from({ length: 2000 }, () => uuidv7());
    // A push carries at most 1000 ops.
    for (const half of [ids.slice(0, 1000), ids.slice(1000)]) {
      const made = await push(
        as.member,
        half.map((id) => op({ name: "thing.create", locationId: loc, args: { id, name: `Screw ${id}`, containerId: box } })),
      );
      expect(made.body.results.every((r: { status: string }) => r.status === "applied")).toBe(true);
    }
    const at = "2027-06-01T08:00:00.000Z";
    const res = await as.member.post(`/api/v1/things/${box}/box-checks`, { at, seen: ids.slice(0, 1000), notHere: ids.slice(1000) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ seen: 1000, notHere: 1000 });
    expect(await state(as.member, ids[0]!)).toMatchObject({ lastSeenAt: at, uncertain: false });
    expect((await state(as.member, ids[1999]!)).uncertain).toBe(true);
    const over = await as.member.post(`/api/v1/things/${box}/box-checks`, { seen: [...ids, uuidv7()] });
    expect(over.status).toBe(400);
  });
});
