/**
 * Moves of boxes between locations (spec "Move and box", POST /locations/{id}/moves): every
 * endpoint, each limit at its bound and one past, the roles, the scans a mover pushes from the
 * truck (the same scan twice is a no-op), box numbers from two offline devices, and unpacking into
 * another location: the things go with their history and rows, members of only the source lose
 * sight of them, and a person who cannot write both locations is refused with nothing changed.
 */
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { memberships } from "../../../server/db/schema/index.js";
import { addBox, make, newMove, packedBox, results, scan, test } from "../../support/moves.js";
import { op } from "../../support/push.js";

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
