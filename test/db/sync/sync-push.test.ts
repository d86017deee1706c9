import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { inboxItemSchema } from "../../../shared/inbox.js";
import { pageOf } from "../../../shared/paging.js";
import { pushResponseSchema } from "../../../sync/protocol.js";
import { rows, sql } from "../../../server/db/client.js";
import { op, push } from "../../support/push.js";
import { apiTest } from "../../support/fixtures.js";

const test = apiTest
  .extend(
    "count",
    { scope: "file" },
    async ({ svc }) =>
      async (table: string) =>
        (await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]!.n,
  )
  .extend(
    "thing",
    { scope: "file" },
    async ({ as }) =>
      (id: string) =>
        as.owner.get(`/api/v1/things/${id}`).then((r) => r.body),
  )
  .extend(
    "inbox",
    { scope: "file" },
    async ({ as, loc }) =>
      async (c = as.owner, kind = "sync_drop", locationId = loc) =>
        pageOf(inboxItemSchema).parse((await c.get(`/api/v1/inbox?locationId=${locationId}&kind=${kind}`)).body).items,
  );

describe("push", () => {
  test("PU4 PU7 each op gets a verdict in order, with the new rowVersion and the txid", async ({ loc, as, thing }) => {
    const id = uuidv7();
    const res = await push(as.member, [
      op({ name: "thing.create", locationId: loc, args: { id, name: "Drill" } }),
      op({ name: "thing.update", locationId: loc, args: { id, patch: { colour: "green" } }, baseVersion: 1 }),
    ]);
    expect(res.status).toBe(200);
    const { results } = pushResponseSchema.parse(res.body);
    expect(results.map((r) => r.status)).toEqual(["applied", "applied"]);
    expect(results[1]).toMatchObject({ rowVersion: 2, txid: expect.stringMatching(/^\d+$/) });
    // One batch, one transaction: both ops share the txid.
    expect((results[0] as { txid: string }).txid).toBe((results[1] as { txid: string }).txid);
    expect(await thing(id)).toMatchObject({ name: "Drill", colour: "green", rowVersion: 2 });
  });

  test("PU6 a replayed batch, whole or in part or out of order, answers duplicate and changes nothing", async ({ loc, as, count, thing }) => {
    const id = uuidv7();
    const ops = [
      op({ name: "thing.create", locationId: loc, args: { id, name: "Hammer" } }),
      op({ name: "thing.update", locationId: loc, args: { id, patch: { name: "Claw hammer" } }, baseVersion: 1 }),
    ];
    const first = pushResponseSchema.parse((await push(as.member, ops)).body).results;
    const history = await count("history_entries");
    const again = pushResponseSchema.parse((await push(as.member, [ops[1]!, ops[0]!, ops[1]!])).body).results;
    expect(again.map((r) => r.status)).toEqual(["duplicate", "duplicate", "duplicate"]);
    expect(again[0]).toMatchObject({ id: ops[1]!.id, was: "applied", rowVersion: 2, txid: (first[1] as { txid: string }).txid });
    expect(await count("history_entries")).toBe(history);
    expect(await thing(id)).toMatchObject({ name: "Claw hammer", rowVersion: 2 });
  });

  test("PU6 an op whose id is older than ops already recorded, never pushed before, applies; the recorded ones answer duplicate", async ({
    loc,
    as,
    thing,
  }) => {
    // A second device of the same person made `older` before the first device's ops were pushed.
    const older = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Made offline earlier" } });
    const recorded = [op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Pushed first" } })];
    expect(pushResponseSchema.parse((await push(as.member, recorded)).body).results.map((r) => r.status)).toEqual(["applied"]);
    const newer = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Made later" } });
    const { results } = pushResponseSchema.parse((await push(as.member, [newer, recorded[0]!, older], "device-2")).body);
    expect(results.map((r) => r.status)).toEqual(["applied", "duplicate", "applied"]);
    expect(await thing(older.args.id as string)).toMatchObject({ name: "Made offline earlier", rowVersion: 1 });
  });

  test("PU6 the same op twice in one batch runs once", async ({ loc, as }) => {
    const o = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Twice" } });
    const { results } = pushResponseSchema.parse((await push(as.member, [o, o])).body);
    expect(results.map((r) => r.status)).toEqual(["applied", "duplicate"]);
  });

  test("PU2 a client below the minimum protocol is refused whole with client_too_old", async ({ loc, as }) => {
    const res = await as.member.post("/api/v1/sync/push", {
      clientId: "old",
      protocol: 0,
      ops: [op({ name: "thing.create", locationId: loc, args: { id: uuidv7() } })],
    });
    expect(res.status).toBe(426);
    expect(res.body.error).toMatchObject({ code: "client_too_old", details: { minProtocol: 1 } });
  });

  test("PU3 whole-batch problems: unauthenticated, too many ops, unreadable envelope", async ({ svc, loc, as }) => {
    const anon = await push(svc.client(), [op({ name: "thing.create", locationId: loc, args: { id: uuidv7() } })]);
    expect(anon.status).toBe(401);
    const many = Array.from({ length: 1001 }, () => op({ name: "thing.create", locationId: loc, args: { id: uuidv7() } }));
    const big = await push(as.member, many);
    expect(big.status).toBe(413);
    expect(big.body.error.details).toMatchObject({ maxOps: 1000, maxBytes: expect.any(Number) });
    const bad = await as.member.post("/api/v1/sync/push", { clientId: "x", protocol: 1, ops: [{ name: "thing.create", args: {} }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("ops.0");
  });

  test("thing.capture makes a draft thing and a draft inbox item", async ({ loc, as, thing, inbox }) => {
    const id = uuidv7();
    const { results } = pushResponseSchema.parse(
      (await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id, name: "Mystery cable" } })])).body,
    );
    expect(results[0]!.status).toBe("applied");
    expect((await thing(id)).lifecycle).toBe("draft");
    const drafts = await inbox(as.owner, "draft");
    expect(drafts.find((d) => d.thing?.id === id)).toMatchObject({
      kind: "draft",
      createdBy: { displayName: "Member Person" },
      thing: { derivedState: ["draft"] },
    });
  });

  test("a 1000-op batch applies in one go", async ({ loc, as }) => {
    const ops = Array.from({ length: 1000 }, (_, i) => op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: `Item ${i}` } }));
    const res = await push(as.member, ops);
    expect(res.status).toBe(200);
    expect(pushResponseSchema.parse(res.body).results.every((r) => r.status === "applied")).toBe(true);
  });
});

describe("drops", () => {
  test("DR1 DR2 a viewer's push is dropped as forbidden and lands in the inbox with the whole op", async ({ loc, as, inbox }) => {
    const o = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Viewer's lamp" } });
    const { results } = pushResponseSchema.parse((await push(as.viewer, [o])).body);
    expect(results[0]).toMatchObject({ status: "dropped", reason: "forbidden" });
    const item = (await inbox()).find((i) => i.id === (results[0] as { inboxItemId: string }).inboxItemId);
    expect(item?.syncDrop).toMatchObject({
      op: o,
      reason: "forbidden",
      by: { displayName: "Viewer Person" },
      entity: { type: "thing", id: o.args.id, name: "Viewer's lamp" },
    });
    expect(item?.locationId).toBe(loc);
  });

  test("DR3 an op for a location the actor cannot see is recorded in their personal location", async ({ loc, as, inbox }) => {
    const o = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Outsider's box" } });
    const { results } = pushResponseSchema.parse((await push(as.outsider, [o])).body);
    expect(results[0]).toMatchObject({ status: "dropped", reason: "not_visible" });
    expect((await inbox()).some((i) => i.id === (results[0] as { inboxItemId: string }).inboxItemId)).toBe(false);
    const personal = (await as.outsider.get("/api/v1/me")).body.locations[0].id as string;
    expect((await inbox(as.outsider, "sync_drop", personal)).map((i) => i.syncDrop?.reason)).toEqual(["not_visible"]);
  });

  test("DR4 an update of a thing whose create was dropped is dropped as depends_on_dropped", async ({ loc, as }) => {
    const id = uuidv7();
    const create = op({ name: "thing.create", locationId: loc, args: { id, name: "Ghost", quantity: "-1" } });
    const update = op({ name: "thing.update", locationId: loc, args: { id, patch: { name: "Still ghost" } } });
    const inside = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "In the ghost", containerId: id } });
    const { results } = pushResponseSchema.parse((await push(as.member, [create, update, inside])).body);
    expect(results.map((r) => (r.status === "dropped" ? r.reason : r.status))).toEqual(["invalid", "depends_on_dropped", "depends_on_dropped"]);
  });

  test("DR4 inside one segment: a thing in a box whose create failed depends on it", async ({ loc, as }) => {
    const box = uuidv7();
    const { results } = pushResponseSchema.parse(
      (
        await push(as.member, [
          op({ name: "thing.create", locationId: loc, args: { id: box, name: "Box", isContainer: true, placeId: uuidv7() } }),
          op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Sock", containerId: box } }),
        ])
      ).body,
    );
    expect(results.map((r) => (r.status === "dropped" ? r.reason : r.status))).toEqual(["not_found", "depends_on_dropped"]);
  });

  test("PU5 when a segment's statement fails, its ops are retried one by one and the rest of the batch still applies in order", async ({ loc, as, thing }) => {
    const [box, lamp] = [uuidv7(), uuidv7()];
    const { results } = pushResponseSchema.parse(
      (
        await push(as.member, [
          op({ name: "thing.create", locationId: loc, args: { id: box, name: "Box", isContainer: true, placeId: uuidv7() } }),
          // Refers to the box, so the segment's insert fails in the database and is retried op by op.
          op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Sock", containerId: box } }),
          op({ name: "thing.create", locationId: loc, args: { id: lamp, name: "Lamp" } }),
          op({ name: "thing.update", locationId: loc, args: { id: lamp, patch: { colour: "red" } }, baseVersion: 1 }),
          op({ name: "thing.update", locationId: loc, args: { id: lamp, patch: { name: "Red lamp" } }, baseVersion: 2 }),
        ])
      ).body,
    );
    expect(results.map((r) => (r.status === "dropped" ? r.reason : r.status))).toEqual(["not_found", "depends_on_dropped", "applied", "applied", "applied"]);
    expect(await thing(lamp)).toMatchObject({ name: "Red lamp", colour: "red", rowVersion: 3 });
    const history = (await as.member.get(`/api/v1/things/${lamp}/history`)).body.items as { summaryKey: string }[];
    expect(history.map((h) => h.summaryKey)).toEqual(["thing.updated", "thing.updated", "thing.created"]);
  });

  test("DR1 a deleted target is dropped as deleted", async ({ loc, as }) => {
    const t = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Gone soon" });
    await as.member.delete(`/api/v1/things/${t.body.id}`, { rowVersion: 1 });
    const { results } = pushResponseSchema.parse(
      (await push(as.member, [op({ name: "thing.update", locationId: loc, args: { id: t.body.id, patch: { name: "x" } } })])).body,
    );
    expect(results[0]).toMatchObject({ status: "dropped", reason: "deleted" });
  });
});

describe("re-apply", () => {
  test("DR5 a dropped op taken from its sync_drop item and pushed again as a new op applies", async ({ loc, as, thing, inbox }) => {
    const o = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Viewer's find" } });
    const { results } = pushResponseSchema.parse((await push(as.viewer, [o])).body);
    const item = (await inbox()).find((i) => i.id === (results[0] as { inboxItemId: string }).inboxItemId)!;
    const dropped = item.syncDrop!.op as typeof o;
    // A member re-applies it: same args, a new op id.
    const again = pushResponseSchema.parse((await push(as.member, [{ ...dropped, id: uuidv7() }])).body).results;
    expect(again[0]!.status).toBe("applied");
    expect((await thing(o.args.id as string)).name).toBe("Viewer's find");
  });

  test("DR1 a rule the op breaks is dropped as conflict: a box into something it holds", async ({ loc, as }) => {
    const outer = uuidv7();
    const inner = uuidv7();
    await push(as.member, [
      op({ name: "thing.create", locationId: loc, args: { id: outer, name: "Outer", isContainer: true } }),
      op({ name: "thing.create", locationId: loc, args: { id: inner, name: "Inner", isContainer: true, containerId: outer } }),
    ]);
    const { results } = pushResponseSchema.parse(
      (await push(as.member, [op({ name: "thing.move", locationId: loc, args: { id: outer, containerId: inner } })])).body,
    );
    expect(results[0]).toMatchObject({ status: "dropped", reason: "conflict" });
  });
});

describe("versions", () => {
  test("VE3 two devices editing different fields of the same thing both apply; the same field is dropped stale", async ({ loc, as, thing }) => {
    const t = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Bike" });
    const a = await push(
      as.member,
      [op({ name: "thing.update", locationId: loc, args: { id: t.body.id, patch: { name: "Road bike" } }, baseVersion: 1 })],
      "phone",
    );
    const b = await push(
      as.admin,
      [op({ name: "thing.update", locationId: loc, args: { id: t.body.id, patch: { colour: "blue" } }, baseVersion: 1 })],
      "laptop",
    );
    const c = await push(
      as.owner,
      [op({ name: "thing.update", locationId: loc, args: { id: t.body.id, patch: { name: "Old bike" } }, baseVersion: 1 })],
      "tablet",
    );
    expect([a, b, c].map((r) => r.body.results[0].status)).toEqual(["applied", "applied", "dropped"]);
    expect(c.body.results[0].reason).toBe("stale");
    expect(await thing(t.body.id)).toMatchObject({ name: "Road bike", colour: "blue", rowVersion: 3 });
  });

  test("VE3 custom fields merge one by one", async ({ svc, loc, as, thing }) => {
    const typeId = (await thing((await as.member.post(`/api/v1/locations/${loc}/things`, { name: "probe" })).body.id)).type.id;
    const { typeFields } = await import("../../../server/db/schema/index.js");
    for (const key of ["size", "shelf_life"])
      await svc.database.db
        .insert(typeFields)
        .values({ id: uuidv7(), accountId: sql`(SELECT account_id FROM locations WHERE id = ${loc})`, typeId, key, kind: "text", label: key });
    const t = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Flour", typeId });
    const a = await push(as.member, [
      op({ name: "thing.update", locationId: loc, args: { id: t.body.id, patch: { fields: { size: "1kg" } } }, baseVersion: 1 }),
    ]);
    const b = await push(as.admin, [
      op({ name: "thing.update", locationId: loc, args: { id: t.body.id, patch: { fields: { shelf_life: "1y" } } }, baseVersion: 1 }),
    ]);
    expect([a.body.results[0].status, b.body.results[0].status]).toEqual(["applied", "applied"]);
    expect((await thing(t.body.id)).fields).toEqual({ size: "1kg", shelf_life: "1y" });
  });

  test("VE5 a delete based on an old version is dropped stale", async ({ loc, as, thing }) => {
    const t = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Chair" });
    await as.admin.patch(`/api/v1/things/${t.body.id}`, { rowVersion: 1, colour: "white" });
    const { results } = pushResponseSchema.parse(
      (await push(as.member, [op({ name: "thing.delete", locationId: loc, args: { id: t.body.id }, baseVersion: 1 })])).body,
    );
    expect(results[0]).toMatchObject({ status: "dropped", reason: "stale" });
    expect((await thing(t.body.id)).name).toBe("Chair");
  });

  test("two devices pushing to the same thing at the same moment: one applies first, the other merges or drops, nothing is lost", async ({
    loc,
    as,
    inbox,
  }) => {
    const t = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Table" });
    const [a, b] = await Promise.all([
      push(as.member, [op({ name: "thing.update", locationId: loc, args: { id: t.body.id, patch: { name: "Oak table" } }, baseVersion: 1 })], "a"),
      push(as.admin, [op({ name: "thing.update", locationId: loc, args: { id: t.body.id, patch: { name: "Pine table" } }, baseVersion: 1 })], "b"),
    ]);
    const statuses = [a.body.results[0].status, b.body.results[0].status].sort();
    expect(statuses).toEqual(["applied", "dropped"]);
    const dropped = [a, b].find((r) => r.body.results[0].status === "dropped")!;
    expect((await inbox()).some((i) => i.id === dropped.body.results[0].inboxItemId)).toBe(true);
  });
});

test("PU5 a batch whose transaction fails midway applies nothing and can be retried whole", async ({ svc, loc, as, count }) => {
  const db = svc.database.db;
  await db.execute(sql`CREATE FUNCTION test_poison() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.name = 'poison' THEN RAISE EXCEPTION 'injected failure' USING ERRCODE = 'XX000'; END IF; RETURN NEW; END $$`);
  await db.execute(sql`CREATE TRIGGER test_poison BEFORE INSERT ON things FOR EACH ROW EXECUTE FUNCTION test_poison()`);
  const good = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "Good" } });
  const bad = op({ name: "thing.create", locationId: loc, args: { id: uuidv7(), name: "poison" } });
  const before = await count("sync_ops");
  const res = await push(as.member, [good, bad]);
  expect(res.status).toBe(500);
  expect((await as.member.get(`/api/v1/things/${String(good.args.id)}`)).status).toBe(404);
  expect(await count("sync_ops")).toBe(before);
  await db.execute(sql`DROP TRIGGER test_poison ON things`);
  const retry = pushResponseSchema.parse((await push(as.member, [good, bad])).body).results;
  expect(retry.map((r) => r.status)).toEqual(["applied", "applied"]);
});
