import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { errorBodySchema } from "../../../shared/errors.js";
import { historyEntrySchema } from "../../../shared/history.js";
import { pageOf } from "../../../shared/paging.js";
import { placeSchema } from "../../../shared/places.js";
import { thingDetailSchema, thingSummarySchema } from "../../../shared/things.js";
import { writeResultSchema } from "../../../shared/writes.js";
import type { Client } from "../../support/members.js";
import { apiTest } from "../../support/fixtures.js";

/** A thing created by `c` in the location (a cordless drill unless the body says otherwise). */
const test = apiTest.extend(
  "create",
  { scope: "file" },
  async ({ loc }) =>
    (c: Client, body: Record<string, unknown> = {}) =>
      c.post(`/api/v1/locations/${loc}/things`, { name: "Cordless drill", ...body }),
);

describe("things", () => {
  test("a member creates a thing; it lands in the Unplaced area with the spec's summary shape", async ({ as, create }) => {
    const res = await create(as.member);
    expect(res.status).toBe(201);
    const thing = thingDetailSchema.parse(res.body);
    expect(thing.path).toEqual([expect.objectContaining({ kind: "place", isUnplaced: true, name: "Unplaced" })]);
    expect(thing.type.builtinKey).toBe("thing");
    expect(thing.rowVersion).toBe(1);
    expect(res.headers.get("x-txid")).toMatch(/^\d+$/);
  });

  test("a thing put in a box inside a shelf has the full path, root first", async ({ loc, as, create }) => {
    const shelf = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Garage shelf" });
    expect(placeSchema.parse(shelf.body).parentId).toBeNull();
    const box = await create(as.member, { name: "Box 7", placeId: shelf.body.id, isContainer: true });
    const screws = await create(as.member, { name: "Screws", containerId: box.body.id, quantity: "250" });
    expect(screws.status).toBe(201);
    expect(screws.body.path.map((p: { name: string; kind: string }) => `${p.kind}:${p.name}`)).toEqual(["place:Garage shelf", "container:Box 7"]);
    expect(screws.body.quantity).toBe(250);
    const inShelf = await as.viewer.get(`/api/v1/locations/${loc}/things?placeId=${shelf.body.id}`);
    expect(
      pageOf(thingSummarySchema)
        .parse(inShelf.body)
        .items.map((t) => t.name),
    ).toEqual(["Box 7", "Screws"]);
  });

  test("creating a thing with an id already taken is 409 conflict and writes nothing (the database refuses the row)", async ({ as, create }) => {
    const id = uuidv7();
    expect((await create(as.member, { id, name: "First" })).status).toBe(201);
    const history = async () => (await as.member.get(`/api/v1/things/${id}/history`)).body.items.length as number;
    const before = await history();
    const res = await create(as.member, { id, name: "Second" });
    expect(res.status).toBe(409);
    expect(errorBodySchema.parse(res.body).error.code).toBe("conflict");
    expect((await as.member.get(`/api/v1/things/${id}`)).body).toMatchObject({ name: "First", rowVersion: 1 });
    expect(await history()).toBe(before);
  });

  test("a box cannot go inside itself or into something it holds", async ({ as, create }) => {
    const outer = await create(as.member, { name: "Outer", isContainer: true });
    const inner = await create(as.member, { name: "Inner", isContainer: true, containerId: outer.body.id });
    const res = await as.member.post(`/api/v1/things/${outer.body.id}/move`, { containerId: inner.body.id });
    expect(res.status).toBe(409);
    expect(errorBodySchema.parse(res.body).error.code).toBe("conflict");
  });

  test("the list pages with next_cursor and searches by name", async ({ loc, as, create }) => {
    for (const n of ["Alpha lamp", "Beta lamp", "Gamma lamp"]) await create(as.member, { name: n });
    const first = await as.viewer.get(`/api/v1/locations/${loc}/things?q=lamp&limit=2`);
    expect(first.body.items.map((t: { name: string }) => t.name)).toEqual(["Alpha lamp", "Beta lamp"]);
    const second = await as.viewer.get(`/api/v1/locations/${loc}/things?q=lamp&limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.items.map((t: { name: string }) => t.name)).toEqual(["Gamma lamp"]);
    expect(second.body.next_cursor).toBeNull();
  });

  test("a stale rowVersion is 409 version_conflict and changes nothing", async ({ as, create }) => {
    const t = await create(as.member, { name: "Ladder" });
    const ok = await as.member.patch(`/api/v1/things/${t.body.id}`, { rowVersion: 1, name: "Step ladder" });
    expect(ok.status).toBe(200);
    expect(ok.body.rowVersion).toBe(2);
    const stale = await as.admin.patch(`/api/v1/things/${t.body.id}`, { rowVersion: 1, name: "Old ladder" });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    expect(stale.body.error.details.rowVersion).toBe(2);
    expect((await as.member.get(`/api/v1/things/${t.body.id}`)).body.name).toBe("Step ladder");
    const del = await as.member.delete(`/api/v1/things/${t.body.id}`, { rowVersion: 1 });
    expect(del.status).toBe(409);
  });

  test("bad input gets a clear 400 and creates nothing", async ({ loc, as, create }) => {
    const before = (await as.member.get(`/api/v1/locations/${loc}/things?limit=200`)).body.items.length;
    const res = await create(as.member, { quantity: "-2" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.message).toContain("quantity");
    const unknownField = await create(as.member, { fields: { warranty: "2 years" } });
    expect(unknownField.status).toBe(400);
    expect((await as.member.get(`/api/v1/locations/${loc}/things?limit=200`)).body.items.length).toBe(before);
  });
});

describe("every role against every write", () => {
  type Ids = { loc: string; thing: string; place: string };
  const writes: Record<string, (c: Client, ids: Ids) => Promise<{ status: number }>> = {
    "create a thing": (c, ids) => c.post(`/api/v1/locations/${ids.loc}/things`, { name: "Role probe" }),
    "change a thing": (c, ids) => c.patch(`/api/v1/things/${ids.thing}`, { rowVersion: 1, name: "Renamed" }),
    "move a thing": (c, ids) => c.post(`/api/v1/things/${ids.thing}/move`, { placeId: ids.place }),
    "delete a thing": (c, ids) => c.delete(`/api/v1/things/${ids.thing}`, { rowVersion: 1 }),
    "create a place": (c, ids) => c.post(`/api/v1/locations/${ids.loc}/places`, { name: "Attic" }),
    "rename a place": (c, ids) => c.patch(`/api/v1/places/${ids.place}`, { rowVersion: 1, name: "Loft" }),
    "rename the location": (c, ids) => c.patch(`/api/v1/locations/${ids.loc}`, { name: "Home" }),
  };
  const expected: Record<string, Record<string, number>> = {
    owner: Object.fromEntries(Object.keys(writes).map((k) => [k, 200])),
    admin: Object.fromEntries(Object.keys(writes).map((k) => [k, 200])),
    member: { ...Object.fromEntries(Object.keys(writes).map((k) => [k, 200])), "rename the location": 403 },
    viewer: Object.fromEntries(Object.keys(writes).map((k) => [k, 403])),
    outsider: Object.fromEntries(Object.keys(writes).map((k) => [k, 404])),
  };
  for (const role of ["owner", "admin", "member", "viewer", "outsider"] as const) {
    for (const [name, write] of Object.entries(writes)) {
      test(`${role}: ${name} -> ${expected[role]![name]}`, async ({ loc, as, create }) => {
        const thing = await create(as.owner, { name: "Target" });
        const place = await as.owner.post(`/api/v1/locations/${loc}/places`, { name: "Target place" });
        const res = await write(as[role], { loc, thing: thing.body.id, place: place.body.id });
        const want = expected[role]![name]!;
        expect(res.status === 201 ? 200 : res.status).toBe(want);
        if (want !== 200) {
          // Refused writes leave the thing as it was.
          expect((await as.owner.get(`/api/v1/things/${thing.body.id}`)).body.rowVersion).toBe(1);
        }
      });
    }
  }
});

describe("history and undo", () => {
  test("history shows a per-field diff and summary lines, newest first", async ({ as, create }) => {
    const t = await create(as.member, { name: "Kettle" });
    await as.member.patch(`/api/v1/things/${t.body.id}`, { rowVersion: 1, name: "Electric kettle", colour: "red" });
    const res = await as.viewer.get(`/api/v1/things/${t.body.id}/history`);
    const page = pageOf(historyEntrySchema).parse(res.body);
    expect(page.items.map((e) => e.action)).toEqual(["thing.updated", "thing.created"]);
    const [update] = page.items;
    expect(update!.diff).toEqual({
      name: { class: "plain", changed: true, hidden: false },
      colour: { class: "plain", changed: true, hidden: false },
    });
    expect(update!.summaryLines).toContainEqual(expect.objectContaining({ text: "name: Kettle → Electric kettle" }));
    expect(update!.actor.displayName).toBe("Member Person");
    expect(update!.undoable_until).not.toBeNull();
  });

  test("undo inside the window restores the old values; a second undo is refused", async ({ as, create }) => {
    const t = await create(as.member, { name: "Toolbox" });
    await as.member.patch(`/api/v1/things/${t.body.id}`, { rowVersion: 1, name: "Red toolbox" });
    const hist = await as.member.get(`/api/v1/things/${t.body.id}/history?kind=updated`);
    const eventId = hist.body.items[0].id;
    const undo = await as.member.post(`/api/v1/history/${eventId}/undo`);
    expect(undo.status).toBe(200);
    expect(undo.body.item.summaryKey).toBe("history.undone");
    const now = await as.member.get(`/api/v1/things/${t.body.id}`);
    expect(now.body).toMatchObject({ name: "Toolbox", rowVersion: 3 });
    const again = await as.member.post(`/api/v1/history/${eventId}/undo`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("undo_expired");
  });

  test("undo of a create takes the thing away again", async ({ as, create }) => {
    const t = await create(as.member, { name: "Mistake", quantity: 2.5 });
    const [created] = (await as.member.get(`/api/v1/things/${t.body.id}/history?kind=created`)).body.items;
    const res = await as.member.post(`/api/v1/history/${created.id}/undo`);
    expect(res.status).toBe(200);
    expect((await as.member.get(`/api/v1/things/${t.body.id}`)).status).toBe(404);
  });

  test("undo of a delete brings the thing back", async ({ as, create }) => {
    const t = await create(as.member, { name: "Tent" });
    const del = await as.member.delete(`/api/v1/things/${t.body.id}`, { rowVersion: 1 });
    const result = writeResultSchema.parse(del.body);
    expect((await as.member.get(`/api/v1/things/${t.body.id}`)).status).toBe(404);
    expect((await as.member.post(`/api/v1/history/${result.eventId}/undo`)).status).toBe(200);
    expect((await as.member.get(`/api/v1/things/${t.body.id}`)).body.name).toBe("Tent");
  });

  test("undo after the window is refused with undo_expired", async ({ svc, as, create }) => {
    const t = await create(as.member, { name: "Sled" });
    const hist = await as.member.get(`/api/v1/things/${t.body.id}/history`);
    const { historyEntries } = await import("../../../server/db/schema/index.js");
    const { eq } = await import("drizzle-orm");
    await svc.database.db
      .update(historyEntries)
      .set({ undoableUntil: new Date(Date.now() - 1000) })
      .where(eq(historyEntries.id, hist.body.items[0].id));
    const res = await as.member.post(`/api/v1/history/${hist.body.items[0].id}/undo`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("undo_expired");
    expect((await as.member.get(`/api/v1/things/${t.body.id}`)).status).toBe(200);
  });

  test("undo is refused when the field changed again since, and by someone else who is not an admin", async ({ as, create }) => {
    const t = await create(as.member, { name: "Saw" });
    await as.member.patch(`/api/v1/things/${t.body.id}`, { rowVersion: 1, name: "Hand saw" });
    const [ev] = (await as.member.get(`/api/v1/things/${t.body.id}/history?kind=updated`)).body.items;
    expect((await as.viewer.post(`/api/v1/history/${ev.id}/undo`)).status).toBe(403);
    await as.admin.patch(`/api/v1/things/${t.body.id}`, { rowVersion: 2, name: "Japanese saw" });
    const res = await as.member.post(`/api/v1/history/${ev.id}/undo`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("conflict");
  });

  test("an outsider cannot read a thing or its history (404, as if absent)", async ({ as, create }) => {
    const t = await create(as.member, { name: "Secret stash" });
    expect((await as.outsider.get(`/api/v1/things/${t.body.id}`)).status).toBe(404);
    expect((await as.outsider.get(`/api/v1/things/${t.body.id}/history`)).status).toBe(404);
    expect((await as.outsider.get(`/api/v1/things/${uuidv7()}`)).status).toBe(404);
  });
});
