/**
 * Unpacking a box of a move into its target location (spec "Move and box"): the box and everything
 * in it move with their history and rows, members of only the source lose sight of them, and a
 * person who cannot write both locations is refused, explained, with nothing changed. Row-level
 * security lets a row move only between locations the person writes.
 */
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { userActor, withActor } from "../../../server/db/actor.js";
import { rows, sql } from "../../../server/db/client.js";
import { memberships, things, users } from "../../../server/db/schema/index.js";
import { v7 as uuidv7 } from "uuid";
import { PNG, sendRaw } from "../../support/hostile.js";
import { addBox, make, newMove, packedBox, results, scan, shapeFrom, test } from "../../support/moves.js";

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
    const upload = await sendRaw(svc, {
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

    // A viewer of only the target reads them with their whole history, and their shape brings them.
    const newcomer = await svc.signedIn("Nia Newcomer");
    await db.insert(memberships).values({ id: uuidv7(), locationId: target.id, userId: newcomer.userId, role: "viewer" });
    const theirHistory = (await newcomer.get(`/api/v1/things/${s.drill.id}/history`)).body.items as { summaryKey: string }[];
    expect(theirHistory.map((h) => h.summaryKey)).toEqual(["thing.moved_location", "thing.updated", "thing.created"]);
    expect((await newcomer.get(`/api/v1/files/${fileId}`)).status).toBe(200);
    expect((await shapeFrom(newcomer)).seen.filter((x) => s.all.includes(x.id)).map((x) => x.op)).toHaveLength(4);
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
