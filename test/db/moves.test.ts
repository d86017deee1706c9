/**
 * Moves of boxes between locations (spec "Move and box", POST /locations/{id}/moves): every
 * endpoint, each limit at its bound and one past, the roles, the scans a mover pushes from the
 * truck (the same scan twice is a no-op), box numbers from two offline devices, and unpacking into
 * another location: the things go with their history and rows, members of only the source lose
 * sight of them, and a person who cannot write both locations is refused with nothing changed.
 */
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { userActor } from "../../server/auth/actor.js";
import { withActor } from "../../server/db/actor.js";
import { rows, sql } from "../../server/db/client.js";
import { memberships, things, users } from "../../server/db/schema/index.js";
import type { TestService } from "../support/app.js";
import { apiTest } from "../support/fixtures.js";
import { PNG, sendRaw } from "../support/hostile.js";
import type { Client } from "../support/members.js";
import { op, push } from "../support/push.js";

/** The file's fixtures, plus a second location of the owner's account (the target) where the member is a member too. */
const test = apiTest.extend("target", { scope: "file" }, async ({ svc, as }) => {
  const made = await as.owner.post("/api/v1/locations", { name: "New flat" });
  expect(made.status).toBe(201);
  const id = made.body.id as string;
  await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId: id, userId: as.member.userId, role: "member" });
  const kitchen = await as.owner.post(`/api/v1/locations/${id}/places`, { name: "Kitchen" });
  return { id, kitchen: kitchen.body.id as string };
});

const make = async (c: Client, loc: string, body: Record<string, unknown>) => {
  const res = await c.post(`/api/v1/locations/${loc}/things`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; shortCode: string };
};

const newMove = async (c: Client, loc: string, body: Record<string, unknown>) => {
  const res = await c.post(`/api/v1/locations/${loc}/moves`, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; rowVersion: number };
};

const addBox = async (c: Client, moveId: string, containerId: string, destination?: unknown) => {
  const res = await c.post(`/api/v1/moves/${moveId}/boxes`, { containerId, ...(destination !== undefined ? { destination } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { number: number; rowVersion: number };
};

const scan = (name: string, loc: string, moveId: string, containerId: string, at = new Date().toISOString()) =>
  op({ name, locationId: loc, args: { moveId, containerId, at } });

const results = async (c: Client, ops: ReturnType<typeof op>[], device = "phone") => {
  const res = await push(c, ops, device);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results as { status: string; reason?: string }[];
};

/** A box holding a drill and a small box with a screw in it. */
async function packedBox(c: Client, loc: string, name = "Box") {
  const box = await make(c, loc, { name, isContainer: true });
  const drill = await make(c, loc, { name: `${name} drill`, containerId: box.id });
  const inner = await make(c, loc, { name: `${name} inner`, containerId: box.id, isContainer: true });
  const screw = await make(c, loc, { name: `${name} screw`, containerId: inner.id });
  return { box, drill, inner, screw, all: [box.id, drill.id, inner.id, screw.id] };
}

/** Every id the things shape gives `c` from `from` on, by operation. */
async function shapeFrom(c: Client, from?: { offset: string; handle: string }) {
  let offset = from?.offset ?? "-1";
  let handle = from?.handle;
  const seen: { op: string; id: string }[] = [];
  for (let i = 0; i < 50; i++) {
    const res = await c.get(`/api/v1/sync/shape/things?offset=${offset}${handle ? `&handle=${handle}` : ""}`);
    expect(res.status).toBe(200);
    for (const m of res.body as { headers?: { operation?: string }; value?: { id: string }; key?: string }[])
      if (m.headers?.operation) seen.push({ op: m.headers.operation, id: m.value?.id ?? m.key ?? "" });
    offset = res.headers.get("electric-offset")!;
    handle = res.headers.get("electric-handle")!;
    if (res.headers.has("electric-up-to-date")) break;
  }
  return { seen, at: { offset, handle: handle! } };
}

describe("moves", () => {
  test("create: 201 with the spec's record; name 1-120 (trimmed), 121 refused; viewer 403, outsider 404", async ({ loc, as, target }) => {
    const made = await newMove(as.member, loc, { name: "  House move  ", toLocationId: target.id });
    expect(made).toEqual({
      id: made.id,
      locationId: loc,
      toLocationName: "New flat",
      name: "House move",
      status: "active",
      createdBy: { displayName: "Member Person" },
      createdAt: expect.any(String),
      finishedAt: null,
      counts: { packed: 0, in_transit: 0, unpacked: 0, total: 0 },
      rowVersion: 1,
      boxes: [],
    });
    expect((await as.member.post(`/api/v1/locations/${loc}/moves`, { name: "x".repeat(120) })).status).toBe(201);
    expect((await as.member.post(`/api/v1/locations/${loc}/moves`, { name: "x".repeat(121) })).status).toBe(400);
    expect((await as.member.post(`/api/v1/locations/${loc}/moves`, { name: "   " })).status).toBe(400);
    const mine = uuidv7();
    expect((await as.member.post(`/api/v1/locations/${loc}/moves`, { id: mine, name: "Mine" })).body.id).toBe(mine);
    expect((await as.viewer.post(`/api/v1/locations/${loc}/moves`, { name: "No" })).status).toBe(403);
    expect((await as.outsider.post(`/api/v1/locations/${loc}/moves`, { name: "No" })).status).toBe(404);
    expect((await as.outsider.get(`/api/v1/moves/${made.id}`)).status).toBe(404);
    expect((await as.viewer.get(`/api/v1/moves/${made.id}`)).body.name).toBe("House move");
  });

  test("the target: another location of the same owner the actor can read; else 400, 404 or 409 with why", async ({ svc, loc, as }) => {
    const same = await as.member.post(`/api/v1/locations/${loc}/moves`, { name: "Nowhere", toLocationId: loc });
    expect(same.status).toBe(400);
    expect(same.body.error.message).toContain("another location");
    // A location of another account the member reads (the outsider's own, shared with the member).
    const other = (await as.outsider.get("/api/v1/me")).body.locations[0].id as string;
    await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId: other, userId: as.member.userId, role: "member" });
    const foreign = await as.member.post(`/api/v1/locations/${loc}/moves`, { name: "Away", toLocationId: other });
    expect(foreign.status).toBe(409);
    expect(foreign.body.error.message).toContain("another owner account");
    // One the member cannot read: not found, existence not leaked.
    const hidden = (await as.viewer.post("/api/v1/locations", { name: "Viewer's own" })).body.id as string;
    expect((await as.member.post(`/api/v1/locations/${loc}/moves`, { name: "Hidden", toLocationId: hidden })).status).toBe(404);
  });

  test("list: newest first, limit 1-200 (default 20), cursor at most 2048", async ({ loc, as }) => {
    const a = await newMove(as.member, loc, { name: "List A" });
    const b = await newMove(as.member, loc, { name: "List B" });
    const page = await as.viewer.get(`/api/v1/locations/${loc}/moves?limit=1`);
    expect(page.status).toBe(200);
    expect(page.body.items.map((m: { id: string }) => m.id)).toEqual([b.id]);
    const next = await as.viewer.get(`/api/v1/locations/${loc}/moves?limit=1&cursor=${page.body.next_cursor}`);
    expect(next.body.items.map((m: { id: string }) => m.id)).toEqual([a.id]);
    expect((await as.viewer.get(`/api/v1/locations/${loc}/moves`)).body.items.length).toBeLessThanOrEqual(20);
    expect((await as.viewer.get(`/api/v1/locations/${loc}/moves?limit=200`)).status).toBe(200);
    expect((await as.viewer.get(`/api/v1/locations/${loc}/moves?limit=201`)).status).toBe(400);
    expect((await as.viewer.get(`/api/v1/locations/${loc}/moves?limit=0`)).status).toBe(400);
    const at2048 = await as.viewer.get(`/api/v1/locations/${loc}/moves?cursor=${"a".repeat(2048)}`);
    expect(at2048.status).toBe(400);
    expect(at2048.body.error.message).toContain("not a cursor this list gave out");
    const at2049 = await as.viewer.get(`/api/v1/locations/${loc}/moves?cursor=${"a".repeat(2049)}`);
    expect(at2049.status).toBe(400);
    expect(at2049.body.error.message).not.toContain("not a cursor this list gave out");
    expect((await as.outsider.get(`/api/v1/locations/${loc}/moves`)).status).toBe(404);
  });

  test("patch: name, target, status active -> finished (finishedAt) or cancelled, no way back; stale rowVersion 409", async ({ loc, as, target }) => {
    const m = await newMove(as.member, loc, { name: "Patch me" });
    const renamed = await as.member.patch(`/api/v1/moves/${m.id}`, { name: "Patched", toLocationId: target.id, rowVersion: 1 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Patched", toLocationName: "New flat", rowVersion: 2 });
    const stale = await as.member.patch(`/api/v1/moves/${m.id}`, { name: "Stale", rowVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    expect((await as.viewer.patch(`/api/v1/moves/${m.id}`, { name: "Viewer", rowVersion: 2 })).status).toBe(403);
    expect((await as.member.patch(`/api/v1/moves/${m.id}`, { status: "active", rowVersion: 2 })).status).toBe(400);
    expect((await as.member.patch(`/api/v1/moves/${m.id}`, { name: "y".repeat(121), rowVersion: 2 })).status).toBe(400);
    const done = await as.member.patch(`/api/v1/moves/${m.id}`, { status: "finished", rowVersion: 2 });
    expect(done.body).toMatchObject({ status: "finished", rowVersion: 3 });
    expect(done.body.finishedAt).toEqual(expect.any(String));
    const again = await as.member.patch(`/api/v1/moves/${m.id}`, { status: "cancelled", rowVersion: 3 });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain("finished");
    const c = await newMove(as.member, loc, { name: "Cancel me" });
    expect((await as.member.patch(`/api/v1/moves/${c.id}`, { status: "cancelled", rowVersion: 1 })).body).toMatchObject({
      status: "cancelled",
      finishedAt: null,
    });
  });

  test("boxes: live containers of the move's location, numbered per move, one active move each; destination in the target", async ({
    svc,
    loc,
    as,
    target,
  }) => {
    const m = await newMove(as.member, loc, { name: "Boxes", toLocationId: target.id });
    const one = await packedBox(as.member, loc, "Books");
    const two = await make(as.member, loc, { name: "Plates", isContainer: true });
    const first = await as.member.post(`/api/v1/moves/${m.id}/boxes`, { containerId: one.box.id, destination: { placeId: target.kitchen } });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      moveId: m.id,
      containerId: one.box.id,
      number: 1,
      state: "packed",
      stateAt: expect.any(String),
      visible: true,
      name: "Books",
      shortCode: one.box.shortCode,
      where: "Unplaced",
      contents: 3,
      destination: { placeId: target.kitchen, name: "Kitchen" },
      rowVersion: 1,
    });
    expect((await addBox(as.member, m.id, two.id, { name: "Dining room" })).number).toBe(2);
    // The same box again: already in; nothing changes.
    expect((await addBox(as.member, m.id, one.box.id)).number).toBe(1);
    // Not a container; a thing of another location; a place of the source as the destination.
    const plain = await make(as.member, loc, { name: "Lamp" });
    expect((await as.member.post(`/api/v1/moves/${m.id}/boxes`, { containerId: plain.id })).status).toBe(400);
    const elsewhere = await make(as.owner, target.id, { name: "There", isContainer: true });
    expect((await as.member.post(`/api/v1/moves/${m.id}/boxes`, { containerId: elsewhere.id })).status).toBe(404);
    const shelf = (await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Old shelf" })).body.id;
    const three = await make(as.member, loc, { name: "Shoes", isContainer: true });
    expect((await as.member.post(`/api/v1/moves/${m.id}/boxes`, { containerId: three.id, destination: { placeId: shelf } })).status).toBe(404);
    expect((await as.member.post(`/api/v1/moves/${m.id}/boxes`, { containerId: three.id, destination: { name: "z".repeat(121) } })).status).toBe(400);
    // In another active move: refused with its name.
    const other = await newMove(as.member, loc, { name: "Other move" });
    const busy = await as.member.post(`/api/v1/moves/${other.id}/boxes`, { containerId: one.box.id });
    expect(busy.status).toBe(409);
    expect(busy.body.error.message).toContain('"Boxes"');
    expect((await as.viewer.post(`/api/v1/moves/${m.id}/boxes`, { containerId: three.id })).status).toBe(403);
    expect((await as.outsider.post(`/api/v1/moves/${m.id}/boxes`, { containerId: three.id })).status).toBe(404);
    // PATCH a box: destination; stale 409; DELETE takes it out.
    const patched = await as.member.patch(`/api/v1/moves/${m.id}/boxes/${two.id}`, { destination: null, rowVersion: 1 });
    expect(patched.body).toMatchObject({ destination: null, rowVersion: 2 });
    expect((await as.member.patch(`/api/v1/moves/${m.id}/boxes/${two.id}`, { state: "in_transit", rowVersion: 1 })).status).toBe(409);
    expect((await as.member.patch(`/api/v1/moves/${m.id}/boxes/${two.id}`, { state: "in_transit", rowVersion: 2 })).body.state).toBe("in_transit");
    expect((await as.member.delete(`/api/v1/moves/${m.id}/boxes/${two.id}`, { rowVersion: 3 })).status).toBe(200);
    const after = (await as.member.get(`/api/v1/moves/${m.id}`)).body;
    expect(after.boxes.map((b: { number: number }) => b.number)).toEqual([1]);
    expect(after.counts).toEqual({ packed: 1, in_transit: 0, unpacked: 0, total: 1 });
    // A new box after a removed one does not reuse its number.
    expect((await addBox(as.member, m.id, three.id)).number).toBe(3);
    void svc;
  });

  test("scans: the same scan twice (also in one batch) is a no-op; a senseless one is dropped; a later scan outruns an older one", async ({ loc, as }) => {
    const m = await newMove(as.member, loc, { name: "Scans" });
    const box = await make(as.member, loc, { name: "Scan box", isContainer: true });
    await addBox(as.member, m.id, box.id);
    const t = (min: number) => new Date(Date.UTC(2031, 0, 1, 10, min)).toISOString();
    expect((await results(as.member, [scan("box.load", loc, m.id, box.id, t(1)), scan("box.load", loc, m.id, box.id, t(2))])).map((r) => r.status)).toEqual([
      "applied",
      "applied",
    ]);
    const loaded = (await as.member.get(`/api/v1/moves/${m.id}`)).body.boxes[0];
    expect(loaded).toMatchObject({ state: "in_transit", stateAt: t(1), rowVersion: 2 });
    expect((await results(as.member, [scan("box.load", loc, m.id, box.id, t(3))]))[0]!.status).toBe("applied");
    expect((await as.member.get(`/api/v1/moves/${m.id}`)).body.boxes[0].rowVersion).toBe(2);
    // An unload scanned before the load (another phone, pushed late) is outrun by it.
    expect((await results(as.admin, [scan("box.unload", loc, m.id, box.id, t(0))], "tablet"))[0]!.status).toBe("applied");
    expect((await as.member.get(`/api/v1/moves/${m.id}`)).body.boxes[0].state).toBe("in_transit");
    expect((await results(as.member, [scan("box.unload", loc, m.id, box.id, t(4))]))[0]!.status).toBe("applied");
    expect((await as.member.get(`/api/v1/moves/${m.id}`)).body.boxes[0].state).toBe("packed");
    const unpack = await results(as.member, [scan("box.unpack", loc, m.id, box.id, t(5)), scan("box.unpack", loc, m.id, box.id, t(6))]);
    expect(unpack.map((r) => r.status)).toEqual(["applied", "applied"]);
    const senseless = await results(as.member, [scan("box.load", loc, m.id, box.id, t(7))]);
    expect(senseless[0]).toMatchObject({ status: "dropped" });
    expect((await as.member.get(`/api/v1/moves/${m.id}`)).body.boxes[0]).toMatchObject({ state: "unpacked", stateAt: t(5) });
    // A viewer's scan is dropped; a scan on a finished move too.
    expect((await results(as.viewer, [scan("box.load", loc, m.id, box.id)], "viewer-phone"))[0]).toMatchObject({ status: "dropped", reason: "forbidden" });
    const v = (await as.member.get(`/api/v1/moves/${m.id}`)).body.rowVersion;
    await as.member.patch(`/api/v1/moves/${m.id}`, { status: "finished", rowVersion: v });
    expect((await results(as.member, [scan("box.unpack", loc, m.id, box.id)]))[0]).toMatchObject({ status: "dropped" });
  });

  test("two devices add boxes to one move offline: each box gets its own number", async ({ loc, as }) => {
    const m = await newMove(as.member, loc, { name: "Two phones" });
    const boxes = await Promise.all([1, 2, 3, 4].map((i) => make(as.member, loc, { name: `Phone box ${i}`, isContainer: true })));
    const add = (id: string) => op({ name: "box.add", locationId: loc, args: { id: uuidv7(), moveId: m.id, containerId: id } });
    const [a, b] = await Promise.all([
      results(as.member, [add(boxes[0]!.id), add(boxes[1]!.id)], "phone-a"),
      results(as.admin, [add(boxes[2]!.id), add(boxes[3]!.id), add(boxes[0]!.id)], "phone-b"),
    ]);
    expect([...a, ...b].every((r) => r.status === "applied")).toBe(true);
    const numbers = (await as.member.get(`/api/v1/moves/${m.id}`)).body.boxes.map((x: { number: number }) => x.number);
    expect(numbers).toEqual([1, 2, 3, 4]);
  });

  test("unpack with no target: the box goes to its destination place in the same location", async ({ loc, as }) => {
    const m = await newMove(as.member, loc, { name: "Rearrange" });
    const attic = (await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Attic" })).body.id;
    const s = await packedBox(as.member, loc, "Attic box");
    await addBox(as.member, m.id, s.box.id, { placeId: attic });
    const res = await as.member.patch(`/api/v1/moves/${m.id}/boxes/${s.box.id}`, { state: "unpacked", rowVersion: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ state: "unpacked", where: "Attic", contents: 3 });
    expect((await as.member.get(`/api/v1/things/${s.drill.id}`)).body.locationId).toBe(loc);
  });
});

describe("unpacking into the target location", () => {
  test("a person who cannot write both locations is refused, explained, and nothing changes", async ({ loc, as, target }) => {
    const m = await newMove(as.member, loc, { name: "Refused" });
    await as.member.patch(`/api/v1/moves/${m.id}`, { toLocationId: target.id, rowVersion: 1 });
    const s = await packedBox(as.member, loc, "Refused box");
    await addBox(as.member, m.id, s.box.id);
    // The admin of the source is no member of the target.
    const res = await as.admin.patch(`/api/v1/moves/${m.id}/boxes/${s.box.id}`, { state: "unpacked", rowVersion: 1 });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('You need to be a member of both "');
    expect(res.body.error.message).toContain('to unpack into "New flat"');
    const pushed = await results(as.admin, [scan("box.unpack", loc, m.id, s.box.id)], "admin-phone");
    expect(pushed[0]).toMatchObject({ status: "dropped", reason: "forbidden" });
    for (const id of s.all) expect((await as.member.get(`/api/v1/things/${id}`)).body.locationId).toBe(loc);
    expect((await as.member.get(`/api/v1/moves/${m.id}`)).body.boxes[0]).toMatchObject({ state: "packed", rowVersion: 1 });
  });

  test("row-level security: a member of only the source cannot put a row into the target", async ({ svc, loc, as, target }) => {
    const db = svc.database.db;
    const thing = await make(as.admin, loc, { name: "Sneaky" });
    const [admin] = await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, as.admin.userId));
    const [member] = await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.id, as.member.userId));
    const [unplaced] = await rows<{ id: string }>(db, sql`SELECT id FROM places WHERE location_id = ${target.id} AND is_unplaced`);
    const move = (who: { id: string; name: string }) =>
      withActor(db, userActor(who, { mfaProven: false }), (tx) =>
        tx.update(things).set({ locationId: target.id, placeId: unplaced!.id, containerId: null }).where(eq(things.id, thing.id)),
      );
    await expect(move(admin!)).rejects.toThrow();
    // A member of both may (the UPDATE policy checks the old row's location and the new one's).
    await move(member!);
    expect((await as.member.get(`/api/v1/things/${thing.id}`)).body.locationId).toBe(target.id);
  });

  test("the box and everything in it move with their history and rows; members of only the source no longer see them", async ({ svc, loc, as, target }) => {
    const db = svc.database.db;
    const m = await newMove(as.member, loc, { name: "To the new flat", toLocationId: target.id });
    const s = await packedBox(as.member, loc, "Kitchen box");
    const others = [await make(as.member, loc, { name: "Box two", isContainer: true }), await make(as.member, loc, { name: "Box three", isContainer: true })];
    // A photo of the drill, a meter with a reading, a secret-free edit in its history.
    const upload = await sendRaw(svc as TestService, {
      method: "POST",
      path: `/api/v1/files?locationId=${loc}`,
      cookies: as.member.cookies,
      address: as.member.address,
      headers: { "content-type": "image/png" },
      body: PNG,
    });
    expect(upload.status).toBe(201);
    const fileId = (upload.body as { id: string }).id;
    await db.execute(sql`UPDATE things SET cover_file_id = ${fileId} WHERE id = ${s.drill.id}`);
    expect((await as.member.patch(`/api/v1/things/${s.drill.id}`, { description: "Cordless", rowVersion: 1 })).status).toBe(200);
    const meter = (await as.member.post(`/api/v1/things/${s.drill.id}/meters`, { kind: "hours", unit: "h" })).body.id;
    expect((await as.member.post(`/api/v1/meters/${meter}/readings`, { value: "12" })).status).toBe(201);
    await addBox(as.member, m.id, s.box.id, { placeId: target.kitchen });
    for (const o of others) await addBox(as.member, m.id, o.id);
    const watch = await shapeFrom(as.admin);
    expect(watch.seen.map((x) => x.id)).toEqual(expect.arrayContaining(s.all));

    // Loaded in the truck (offline, pushed later), then one box unpacked in the new flat.
    const loads = [s.box.id, ...others.map((o) => o.id)].map((id) => scan("box.load", loc, m.id, id));
    expect((await results(as.member, loads)).map((r) => r.status)).toEqual(["applied", "applied", "applied"]);
    expect((await results(as.member, [scan("box.unpack", loc, m.id, s.box.id)]))[0]!.status).toBe("applied");

    const moved = (await as.member.get(`/api/v1/moves/${m.id}`)).body;
    expect(moved.counts).toEqual({ packed: 0, in_transit: 2, unpacked: 1, total: 3 });
    expect(moved.boxes[0]).toMatchObject({ state: "unpacked", visible: true, where: "Kitchen", contents: 3 });
    // In the target, in the kitchen; contents stay inside their containers.
    const box = (await as.member.get(`/api/v1/things/${s.box.id}`)).body;
    expect(box).toMatchObject({ locationId: target.id, shortCode: s.box.shortCode });
    expect(box.placeId ?? box.place?.id).toBe(target.kitchen);
    const screw = (await as.member.get(`/api/v1/things/${s.screw.id}`)).body;
    expect(screw).toMatchObject({ locationId: target.id, containerId: s.inner.id });
    // Their history: the earlier entries and the move, marked as moved in from elsewhere.
    const history = (await as.member.get(`/api/v1/things/${s.drill.id}/history`)).body.items as {
      summaryKey: string;
      movedInFromElsewhere?: boolean;
      summary: string;
    }[];
    expect(history.map((h) => h.summaryKey)).toEqual(["thing.moved_location", "thing.updated", "thing.created"]);
    expect(history[0]).toMatchObject({ movedInFromElsewhere: true });
    expect(history[0]!.summary).toContain("New flat");
    // Its rows went along: the photo, the meter and its reading, its code.
    expect((await as.member.get(`/api/v1/files/${fileId}`)).status).toBe(200);
    expect((await as.member.get(`/api/v1/meters/${meter}/readings`)).body.items).toHaveLength(1);
    expect((await as.member.get(`/api/v1/codes/${s.drill.shortCode}`)).status).toBe(200);
    const [left] = await rows<{ n: number }>(
      db,
      sql`SELECT (SELECT count(*) FROM history_entries WHERE entity_id = ANY(${`{${s.all.join(",")}}`}::uuid[]) AND location_id = ${loc})
        + (SELECT count(*) FROM files WHERE id = ${fileId} AND location_id = ${loc})
        + (SELECT count(*) FROM meters WHERE id = ${meter} AND location_id = ${loc})
        + (SELECT count(*) FROM readings WHERE meter_id = ${meter} AND location_id = ${loc})
        + (SELECT count(*) FROM codes WHERE thing_id = ANY(${`{${s.all.join(",")}}`}::uuid[]) AND location_id = ${loc}) AS n`,
    );
    expect(Number(left!.n)).toBe(0);

    // The admin reads only the source: the things are gone from REST and from its device's shape.
    for (const id of s.all) expect((await as.admin.get(`/api/v1/things/${id}`)).status).toBe(404);
    const list = (await as.admin.get(`/api/v1/locations/${loc}/things?limit=200`)).body.items.map((t: { id: string }) => t.id);
    expect(list.filter((id: string) => s.all.includes(id))).toEqual([]);
    const after = await shapeFrom(as.admin, watch.at);
    expect(after.seen.filter((x) => s.all.includes(x.id)).map((x) => x.op)).toEqual(["delete", "delete", "delete", "delete"]);
    expect((await as.admin.get(`/api/v1/files/${fileId}`)).status).toBe(404);
    // The admin still sees the move; the unpacked box is no longer visible to them.
    const seenByAdmin = (await as.admin.get(`/api/v1/moves/${m.id}`)).body.boxes[0];
    expect(seenByAdmin).toEqual({ ...seenByAdmin, visible: false, name: null, shortCode: null, where: null, contents: 0 });
    // The other two are still in transit, in the source.
    expect(moved.boxes.slice(1).map((b: { state: string }) => b.state)).toEqual(["in_transit", "in_transit"]);
    expect((await as.admin.get(`/api/v1/things/${others[0]!.id}`)).body.locationId).toBe(loc);
  });
});
