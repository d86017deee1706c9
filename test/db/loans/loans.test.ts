/**
 * Loans (issue "moves-loans", spec "Loan", GET /loans, "Limits"): lending and borrowing by REST and
 * by pushed op, the split of a partial quantity and the join on return, previousPlace, the list's
 * filters and counts, derivedState, roles and each limit at its bound and one past.
 */
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { loanSchema } from "../../../shared/loans.js";
import { sql } from "../../../server/db/client.js";
import { contacts, loans, things } from "../../../server/db/schema/index.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { HttpClient } from "../../support/app.js";
import { walkPages } from "../../support/paging.js";
import { op, push } from "../../support/push.js";

const DAY = 86_400_000;
const dayFrom = (n: number) => new Date(Date.now() + n * DAY).toISOString().slice(0, 10);

async function thingIn(c: HttpClient, loc: string, body: Record<string, unknown> = {}) {
  const made = await c.post(`/api/v1/locations/${loc}/things`, { name: "Drill", ...body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body as { id: string; placeId: string };
}

async function lend(c: HttpClient, thingId: string, body: Record<string, unknown> = {}) {
  return c.post(`/api/v1/things/${thingId}/loans`, { direction: "out", person: { name: "Sam" }, ...body });
}

const historyOf = async (c: HttpClient, id: string) =>
  ((await c.get(`/api/v1/things/${id}/history?limit=50`)).body.items as { summary: string }[]).map((h) => h.summary);

describe("lending", () => {
  test("a member lends a thing to a new contact; the loan answers the spec's record and the thing shows lent", async ({ svc, loc, as }) => {
    const shelf = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Garage" });
    const thing = await thingIn(as.member, loc, { name: "Hedge trimmer", placeId: shelf.body.id });
    const res = await lend(as.member, thing.id, {
      dueOn: dayFrom(7),
      notes: "Careful with the blade",
      conditionOut: [{ id: uuidv7(), note: "scratch on the handle" }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const loan = loanSchema.parse(res.body);
    expect(loan).toMatchObject({
      thingId: thing.id,
      direction: "out",
      person: { name: "Sam", isMember: false },
      dueOn: dayFrom(7),
      returnedAt: null,
      overdue: false,
      quantity: "1",
      splitFromThingId: null,
      returnPlace: null,
      previousPlace: { type: "place", id: shelf.body.id, name: "Garage" },
      notes: "Careful with the blade",
      rowVersion: 1,
      createdBy: { displayName: "Member Person" },
      thing: { id: thing.id, derivedState: ["lent"] },
    });
    expect(loan.previousPlace!.path).toContain("Garage");
    const [contact] = await svc.database.db.select().from(contacts).where(eq(contacts.id, loan.person.id));
    expect(contact).toMatchObject({ name: "Sam" });
    expect((await as.viewer.get(`/api/v1/things/${thing.id}`)).body.derivedState).toEqual(["lent"]);
    const listed = await as.viewer.get(`/api/v1/locations/${loc}/things?q=Hedge`);
    expect(listed.body.items[0].derivedState).toEqual(["lent"]);
    expect((await as.viewer.get(`/api/v1/loans/${loan.id}`)).body).toEqual(loan);
    // The same thing cannot go out again while the loan is open.
    const again = await lend(as.member, thing.id);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toMatch(/already on an open loan/);
    expect(await historyOf(as.member, thing.id)).toContain("Lent 1 Hedge trimmer to Sam");
  });

  test("borrowed from a member shows borrowed; a contact is named again by id", async ({ loc, as, team }) => {
    const a = await thingIn(as.member, loc, { name: "Borrowed ladder" });
    const res = await as.member.post(`/api/v1/things/${a.id}/loans`, { direction: "in", person: { userId: as.admin.userId } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.person).toEqual({ id: as.admin.userId, name: "Admin Person", isMember: true });
    expect(res.body.thing.derivedState).toEqual(["borrowed"]);
    // Not a member of this location: 404 member.
    const outsider = await as.member.post(`/api/v1/things/${(await thingIn(as.member, loc)).id}/loans`, {
      direction: "out",
      person: { userId: as.outsider.userId },
    });
    expect(outsider.status).toBe(404);
    const first = await lend(as.member, (await thingIn(as.member, loc)).id, { person: { name: "Noor" } });
    const second = await lend(as.member, (await thingIn(as.member, loc)).id, { person: { contactId: first.body.person.id } });
    expect(second.status).toBe(201);
    expect(second.body.person).toEqual({ id: first.body.person.id, name: "Noor", isMember: false });
    const list = await as.member.get(`/api/v1/contacts?locationId=${team.locationId}`);
    expect(list.body.items.map((c: { name: string }) => c.name)).toContain("Noor");
    const unknown = await lend(as.member, (await thingIn(as.member, loc)).id, { person: { contactId: uuidv7() } });
    expect(unknown.status).toBe(404);
  });

  test("contacts page by name with limit and cursor: each once, in order; next_cursor is null on the last page", async ({ loc, as, team }) => {
    const names = ["Zed Paging", "amy Paging", "Bob Paging", "Ámal Paging", "carl Paging"];
    for (const name of names) expect((await lend(as.member, (await thingIn(as.member, loc)).id, { person: { name } })).status).toBe(201);
    const walked = await walkPages<{ id: string; name: string }>(as.member, `/api/v1/contacts?locationId=${team.locationId}`, 2);
    expect(new Set(walked.items.map((c) => c.id)).size).toBe(walked.items.length);
    const all = await as.member.get(`/api/v1/contacts?locationId=${team.locationId}&limit=200`);
    expect(all.body.next_cursor).toBeNull();
    expect(walked.items).toEqual(all.body.items);
    expect(walked.items.map((c) => c.name).filter((n) => n.endsWith("Paging"))).toHaveLength(names.length);
    for (const cursor of ["not-a-cursor", Buffer.from(JSON.stringify(["amy", "not-a-uuid"])).toString("base64url")])
      expect((await as.member.get(`/api/v1/contacts?cursor=${cursor}`)).status).toBe(400);
  });

  test("a member named on a loan whose account is deleted: the loan stays, with the name it was made with", async ({ svc, loc, as }) => {
    // A managed account (a child's), as removing one will delete it; nothing else here deletes users.
    const kid = await as.owner.post(`/api/v1/locations/${loc}/managed-accounts`, { username: `kid${Date.now() % 100000}`, displayName: "Kid Borrower" });
    expect(kid.status, JSON.stringify(kid.body)).toBe(201);
    const kidId = kid.body.id as string;
    const thing = await thingIn(as.member, loc, { name: "Scooter" });
    const res = await lend(as.member, thing.id, { person: { userId: kidId } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.person).toMatchObject({ id: kidId, name: "Kid Borrower", isMember: true });
    await svc.database.db.execute(sql`DELETE FROM managed_accounts WHERE user_id = ${kidId}`);
    await svc.database.db.execute(sql`DELETE FROM memberships WHERE user_id = ${kidId}`);
    await svc.database.db.execute(sql`DELETE FROM users WHERE id = ${kidId}`);
    const after = await as.member.get(`/api/v1/loans/${res.body.id}`);
    expect(after.status).toBe(200);
    expect(after.body.person).toEqual({ id: "00000000-0000-0000-0000-000000000000", name: "Kid Borrower", isMember: false });
    expect((await as.member.post(`/api/v1/loans/${res.body.id}/return`, {})).status).toBe(200);
  });

  test("roles: a viewer cannot lend, return or change; an outsider gets 404 for everything", async ({ loc, as }) => {
    const thing = await thingIn(as.member, loc);
    expect((await lend(as.viewer, thing.id)).status).toBe(403);
    expect((await lend(as.outsider, thing.id)).status).toBe(404);
    const loan = (await lend(as.member, thing.id)).body;
    expect((await as.viewer.post(`/api/v1/loans/${loan.id}/return`, {})).status).toBe(403);
    expect((await as.viewer.patch(`/api/v1/loans/${loan.id}`, { notes: "x", rowVersion: 1 })).status).toBe(403);
    expect((await as.outsider.get(`/api/v1/loans/${loan.id}`)).status).toBe(404);
    expect((await as.outsider.post(`/api/v1/loans/${loan.id}/return`, {})).status).toBe(404);
    expect((await as.outsider.patch(`/api/v1/loans/${loan.id}`, { notes: "x", rowVersion: 1 })).status).toBe(404);
    const theirs = await as.outsider.get("/api/v1/loans?limit=200");
    expect(theirs.body.items.map((l: { id: string }) => l.id)).not.toContain(loan.id);
    expect((await as.viewer.get(`/api/v1/loans/${loan.id}`)).status).toBe(200);
  });

  test("bad input is refused with nothing changed: quantity, dueOn, notes, conditions", async ({ svc, loc, as }) => {
    const thing = await thingIn(as.member, loc, { quantity: "5" });
    const refused = async (body: Record<string, unknown>, status = 400) => {
      const res = await lend(as.member, thing.id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
    };
    await refused({ quantity: "5.001" });
    await refused({ quantity: "6" });
    await refused({ quantity: "0" });
    await refused({ quantity: "-1" });
    await refused({ dueOn: dayFrom(-1) });
    await refused({ dueOn: "2026-02-30" });
    await refused({ notes: "n".repeat(2001) });
    await refused({ conditionOut: Array.from({ length: 21 }, () => ({ id: uuidv7() })) });
    await refused({ conditionOut: [{ id: uuidv7(), note: "n".repeat(501) }] });
    await refused({ person: { name: "" } });
    await refused({ direction: "sideways" });
    // A split id that some thing already has is taken, whether or not the loan needs a split.
    await refused({ quantity: "2", splitThingId: thing.id }, 409);
    await refused({ splitThingId: (await thingIn(as.member, loc)).id }, 409);
    expect(await svc.database.db.select().from(loans).where(eq(loans.thingId, thing.id))).toHaveLength(0);
    const ok = await lend(as.member, thing.id, {
      quantity: "5",
      notes: "n".repeat(2000),
      conditionOut: Array.from({ length: 20 }, () => ({ id: uuidv7(), note: "n".repeat(500) })),
      dueOn: dayFrom(0),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.quantity).toBe("5");
    expect(ok.body.splitFromThingId).toBeNull();
  });
});

describe("split and join", () => {
  test("lending 3 of 5 splits the thing; the return joins it back with nothing lost", async ({ svc, loc, as }) => {
    const db = svc.database.db;
    const tag = await as.owner.post(`/api/v1/locations/${loc}/tags`, { name: "Garden" });
    const shelf = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Shed" });
    const orig = await thingIn(as.member, loc, { name: "Folding chair", quantity: "5", placeId: shelf.body.id, tagIds: [tag.body.id], colour: "green" });
    const splitId = uuidv7();
    const res = await lend(as.member, orig.id, { quantity: "3", splitThingId: splitId, person: { name: "Sam" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ thingId: splitId, splitFromThingId: orig.id, quantity: "3", previousPlace: { id: shelf.body.id } });
    const [a, b] = await Promise.all([as.member.get(`/api/v1/things/${orig.id}`), as.member.get(`/api/v1/things/${splitId}`)]);
    expect(a.body).toMatchObject({ quantity: 2, derivedState: [], colour: "green", tagIds: [tag.body.id], placeId: shelf.body.id });
    expect(b.body).toMatchObject({
      quantity: 3,
      derivedState: ["lent"],
      name: "Folding chair",
      colour: "green",
      tagIds: [tag.body.id],
      placeId: shelf.body.id,
    });
    expect(b.body.shortCode).not.toBe(a.body.shortCode);
    expect(await historyOf(as.member, orig.id)).toContain("Split 3 off Folding chair for a loan to Sam");
    expect(await historyOf(as.member, splitId)).toContain("Split from Folding chair: 3 for a loan to Sam");
    // The original's remaining 2 can go out on a loan of their own.
    expect((await lend(as.member, orig.id, { quantity: "1", person: { name: "Kim" } })).status).toBe(201);
    const [o2] = await db.select({ q: things.quantity }).from(things).where(eq(things.id, orig.id));
    expect(o2!.q).toBe("1.000");

    const back = await as.member.post(`/api/v1/loans/${res.body.id}/return`, {});
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.returnedAt).not.toBeNull();
    expect(back.body.returnPlace).toMatchObject({ type: "place", id: shelf.body.id });
    const [orig3] = await db.select().from(things).where(eq(things.id, orig.id));
    const [split3] = await db.select().from(things).where(eq(things.id, splitId));
    expect(orig3).toMatchObject({ quantity: "4.000", deletedAt: null, colour: "green" });
    expect(split3!.deletedAt).not.toBeNull();
    expect(await historyOf(as.member, orig.id)).toContain("3 of Folding chair came back from a loan and joined it again");
    expect(await historyOf(as.member, splitId)).toContain("Returned and joined back into Folding chair");
    // Returning twice is refused.
    expect((await as.member.post(`/api/v1/loans/${res.body.id}/return`, {})).status).toBe(409);
  });

  test("if the original was deleted meanwhile, the split thing simply stays", async ({ svc, loc, as }) => {
    const orig = await thingIn(as.member, loc, { name: "Plates", quantity: "5" });
    const loan = (await lend(as.member, orig.id, { quantity: "2" })).body;
    expect((await as.member.delete(`/api/v1/things/${orig.id}`, { rowVersion: 2 })).status).toBe(200);
    const back = await as.member.post(`/api/v1/loans/${loan.id}/return`, {});
    expect(back.status).toBe(200);
    const [split] = await svc.database.db.select().from(things).where(eq(things.id, loan.thingId));
    expect(split).toMatchObject({ quantity: "2.000", deletedAt: null });
  });

  test("the return puts the thing back where it was, or where the person says", async ({ loc, as }) => {
    const a = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Hall" });
    const box = await thingIn(as.member, loc, { name: "Crate", isContainer: true });
    const thing = await thingIn(as.member, loc, { name: "Tent", placeId: a.body.id });
    const loan = (await lend(as.member, thing.id)).body;
    // Meanwhile someone moved it in the records (it was picked up from the car, say).
    const other = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Car" });
    expect((await as.member.post(`/api/v1/things/${thing.id}/move`, { placeId: other.body.id })).status).toBe(200);
    const back = await as.member.post(`/api/v1/loans/${loan.id}/return`, {});
    expect(back.body.returnPlace).toMatchObject({ type: "place", id: a.body.id, name: "Hall" });
    expect((await as.member.get(`/api/v1/things/${thing.id}`)).body).toMatchObject({ placeId: a.body.id, derivedState: [] });
    const loan2 = (await lend(as.member, thing.id)).body;
    const into = await as.member.post(`/api/v1/loans/${loan2.id}/return`, {
      returnPlace: { type: "thing", id: box.id },
      conditionIn: [{ id: uuidv7(), note: "dirty" }],
    });
    expect(into.status, JSON.stringify(into.body)).toBe(200);
    expect(into.body.returnPlace).toMatchObject({ type: "thing", id: box.id, name: "Crate" });
    expect(into.body.conditionIn).toHaveLength(1);
    expect((await as.member.get(`/api/v1/things/${thing.id}`)).body.containerId).toBe(box.id);
    const loan3 = (await lend(as.member, thing.id)).body;
    expect((await as.member.post(`/api/v1/loans/${loan3.id}/return`, { returnPlace: { type: "thing", id: thing.id } })).status).toBe(400);
    expect((await as.member.post(`/api/v1/loans/${loan3.id}/return`, { returnPlace: { type: "place", id: uuidv7() } })).status).toBe(404);
  });
});

describe("update", () => {
  test("PATCH changes dueOn and notes with the rowVersion; stale is 409 version_conflict", async ({ loc, as }) => {
    const loan = (await lend(as.member, (await thingIn(as.member, loc)).id)).body;
    const res = await as.member.patch(`/api/v1/loans/${loan.id}`, { dueOn: dayFrom(3), notes: "Ring first", rowVersion: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ dueOn: dayFrom(3), notes: "Ring first", rowVersion: 2 });
    const stale = await as.member.patch(`/api/v1/loans/${loan.id}`, { notes: "x", rowVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("version_conflict");
    expect((await as.member.patch(`/api/v1/loans/${loan.id}`, { notes: "n".repeat(2001), rowVersion: 2 })).status).toBe(400);
    expect((await as.member.patch(`/api/v1/loans/${loan.id}`, { notes: "n".repeat(2000), rowVersion: 2 })).status).toBe(200);
    expect((await as.member.patch(`/api/v1/loans/${loan.id}`, { dueOn: dayFrom(-2), rowVersion: 3 })).status).toBe(400);
  });
});

describe("ops", () => {
  test("loan.create, loan.return and loan.update pushed from a device; a refused op is dropped; the same op twice is a duplicate", async ({ svc, loc, as }) => {
    const db = svc.database.db;
    const orig = await thingIn(as.member, loc, { name: "Glasses", quantity: "5" });
    const loanId = uuidv7();
    const contactId = uuidv7();
    const splitThingId = uuidv7();
    const create = op({
      name: "loan.create",
      locationId: loc,
      args: { id: loanId, thingId: orig.id, direction: "out", person: { name: "Ola", id: contactId }, quantity: "3", splitThingId, dueOn: dayFrom(1) },
    });
    const again = op({ name: "loan.create", locationId: loc, args: { id: uuidv7(), thingId: splitThingId, direction: "out", person: { contactId } } });
    const pushed = await push(as.member, [create, again]);
    expect(pushed.status).toBe(200);
    expect(pushed.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "dropped"]);
    expect(pushed.body.results[1].reason).toBe("conflict");
    expect((await as.member.get(`/api/v1/loans/${loanId}`)).body).toMatchObject({ thingId: splitThingId, person: { id: contactId, name: "Ola" } });
    const update = op({ name: "loan.update", locationId: loc, args: { id: loanId, patch: { notes: "pushed" } }, baseVersion: 1 });
    const ret = op({ name: "loan.return", locationId: loc, args: { id: loanId } });
    const res2 = await push(as.member, [update, ret]);
    expect(res2.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
    const dup = await push(as.member, [ret]);
    expect(dup.body.results[0].status).toBe("duplicate");
    const twice = await push(as.member, [op({ name: "loan.return", locationId: loc, args: { id: loanId } })]);
    expect(twice.body.results[0]).toMatchObject({ status: "dropped", reason: "conflict" });
    const [o] = await db.select({ q: things.quantity }).from(things).where(eq(things.id, orig.id));
    expect(o!.q).toBe("5.000");
    const viewer = await push(as.viewer, [
      op({ name: "loan.create", locationId: loc, args: { id: uuidv7(), thingId: orig.id, direction: "out", person: { contactId } } }),
    ]);
    expect(viewer.body.results[0]).toMatchObject({ status: "dropped", reason: "forbidden" });
  });
});
