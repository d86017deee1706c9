/**
 * Deleting a place: only an empty one goes (a tombstone, undoable); one that holds places or things
 * is refused saying which, and nothing changes. REST and pushed ops alike.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { errorBodySchema } from "../../../shared/errors.js";
import { writeResultSchema } from "../../../shared/writes.js";
import { historyEntries } from "../../../server/db/schema/index.js";
import { apiTest } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

const test = apiTest
  /** A new place (inside `parentId` when given); answers its id. */
  .extend("place", { scope: "file" }, async ({ loc }) => async (c: Client, name: string, parentId?: string) => {
    const res = await c.post(`/api/v1/locations/${loc}/places`, { name, ...(parentId ? { parentId } : {}) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  })
  /** The ids of the location's live places. */
  .extend("placeIds", { scope: "file" }, async ({ loc, as }) => async () => {
    const res = await as.owner.get(`/api/v1/locations/${loc}/places`);
    return (res.body.items as { id: string }[]).map((p) => p.id);
  });

const code = (body: unknown) => errorBodySchema.parse(body).error.code;

describe("DELETE /api/v1/places/:id", () => {
  test("a member deletes an empty place: the write result with its txid, and the place leaves the list", async ({ as, place, placeIds }) => {
    const id = await place(as.member, "Old shed");
    const res = await as.member.delete(`/api/v1/places/${id}`, { rowVersion: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(writeResultSchema.parse(res.body)).toMatchObject({ id, rowVersion: 2 });
    expect(res.headers.get("x-txid")).toBe(res.body.txid);
    expect(await placeIds()).not.toContain(id);
    // Deleted already: gone, and still gone.
    const again = await as.member.delete(`/api/v1/places/${id}`, { rowVersion: 2 });
    expect([404, 410]).toContain(again.status);
  });

  test("a place holding another place, or a thing, is refused with 409 saying which; nothing changes", async ({ loc, as, place, placeIds }) => {
    const garage = await place(as.member, "Garage");
    await place(as.member, "Shelf", garage);
    const withPlace = await as.member.delete(`/api/v1/places/${garage}`, { rowVersion: 1 });
    expect(withPlace.status).toBe(409);
    expect(withPlace.body.error).toMatchObject({ code: "conflict", details: { holds: "places" } });
    expect(withPlace.body.error.message).toMatch(/still holds other places/);

    const attic = await place(as.member, "Attic");
    expect((await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Lamp", placeId: attic })).status).toBe(201);
    const withThing = await as.member.delete(`/api/v1/places/${attic}`, { rowVersion: 1 });
    expect(withThing.status).toBe(409);
    expect(withThing.body.error).toMatchObject({ code: "conflict", details: { holds: "things" } });
    expect(await placeIds()).toEqual(expect.arrayContaining([garage, attic]));
    const list = (await as.owner.get(`/api/v1/locations/${loc}/places`)).body.items as { id: string; rowVersion: number }[];
    expect(list.find((p) => p.id === attic)?.rowVersion).toBe(1);
  });

  test("the Unplaced area cannot be deleted; a stale rowVersion is version_conflict", async ({ loc, as, place }) => {
    const all = (await as.owner.get(`/api/v1/locations/${loc}/places`)).body.items as { id: string; isUnplaced: boolean; rowVersion: number }[];
    const unplaced = all.find((p) => p.isUnplaced)!;
    const res = await as.owner.delete(`/api/v1/places/${unplaced.id}`, { rowVersion: unplaced.rowVersion });
    expect(res.status).toBe(400);
    expect(code(res.body)).toBe("validation_failed");

    const id = await place(as.member, "Porch");
    expect((await as.member.patch(`/api/v1/places/${id}`, { rowVersion: 1, name: "Front porch" })).status).toBe(200);
    const stale = await as.member.delete(`/api/v1/places/${id}`, { rowVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "version_conflict", details: { rowVersion: 2 } });
  });

  test("a viewer cannot delete (403), an outsider cannot see the place (404), bad input is 400", async ({ as, place, placeIds }) => {
    const id = await place(as.member, "Cellar");
    expect((await as.viewer.delete(`/api/v1/places/${id}`, { rowVersion: 1 })).status).toBe(403);
    expect((await as.outsider.delete(`/api/v1/places/${id}`, { rowVersion: 1 })).status).toBe(404);
    expect((await as.member.delete(`/api/v1/places/${id}`, { rowVersion: "one" })).status).toBe(400);
    expect((await as.member.delete(`/api/v1/places/not-a-uuid`, { rowVersion: 1 })).status).toBe(400);
    expect(await placeIds()).toContain(id);
  });

  test("a write token may delete a place, as it may a thing", async ({ svc, loc, as, place, placeIds }) => {
    const made = await as.member.post("/api/v1/tokens", { name: "Script", scope: "write", locationIds: [loc] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = await place(as.member, "Token shed");
    const res = await svc.client().request("DELETE", `/api/v1/places/${id}`, { rowVersion: 1 }, { authorization: `Bearer ${made.body.secret}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await placeIds()).not.toContain(id);
  });

  test("undo of a delete brings the place back", async ({ svc, as, place, placeIds }) => {
    const id = await place(as.member, "Loft");
    expect((await as.member.delete(`/api/v1/places/${id}`, { rowVersion: 1 })).status).toBe(200);
    const [event] = await svc.database.db
      .select({ id: historyEntries.id })
      .from(historyEntries)
      .where(and(eq(historyEntries.entityId, id), eq(historyEntries.action, "place.deleted")));
    const undo = await as.member.post(`/api/v1/history/${event!.id}/undo`);
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect(await placeIds()).toContain(id);
  });
});

describe("place.delete pushed", () => {
  test("a child deleted before its parent in one batch lets the parent go; the other order drops the parent", async ({ loc, as, place, placeIds }) => {
    const room = await place(as.member, "Spare room");
    const box = await place(as.member, "Corner", room);
    const ok = await push(as.member, [
      op({ name: "place.delete", locationId: loc, args: { id: box }, baseVersion: 1 }),
      op({ name: "place.delete", locationId: loc, args: { id: room }, baseVersion: 1 }),
    ]);
    expect(ok.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
    expect(await placeIds()).not.toContain(room);

    const hall = await place(as.member, "Hall");
    const nook = await place(as.member, "Nook", hall);
    const res = await push(as.member, [
      op({ name: "place.delete", locationId: loc, args: { id: hall }, baseVersion: 1 }),
      op({ name: "place.delete", locationId: loc, args: { id: nook }, baseVersion: 1 }),
    ]);
    expect(res.body.results[0]).toMatchObject({ status: "dropped", reason: "conflict" });
    expect(res.body.results[1].status).toBe("applied");
    const ids = await placeIds();
    expect(ids).toContain(hall);
    expect(ids).not.toContain(nook);
    // The refused delete is kept for a person to review.
    const drops = (await as.member.get(`/api/v1/inbox?locationId=${loc}&kind=sync_drop`)).body.items as { syncDrop?: { op: { args: { id: string } } } }[];
    expect(drops.some((d) => d.syncDrop?.op.args.id === hall)).toBe(true);
  });

  test("a viewer's pushed delete is dropped and the place stays", async ({ loc, as, place, placeIds }) => {
    const id = await place(as.member, uuidv7().slice(0, 8));
    const res = await push(as.viewer, [op({ name: "place.delete", locationId: loc, args: { id } })]);
    expect(res.body.results[0]).toMatchObject({ status: "dropped", reason: "forbidden" });
    expect(await placeIds()).toContain(id);
  });
});
