/**
 * The owner's acts on a location: transfer to another member (who must be a member; the old owner
 * becomes an admin) and delete (into the 30-day trash: gone from every member's lists at once).
 * Both need the name typed as `confirm`; the personal location is neither transferred nor deleted;
 * admins, members, viewers, outsiders and tokens are refused.
 */
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import type { Role } from "../../../shared/roles.js";
import { rows, sql } from "../../../server/db/client.js";
import { memberships } from "../../../server/db/schema/index.js";
import { type TestService } from "../../support/app.js";
import { expectError } from "../../support/auth.js";
import type { Client } from "../../support/members.js";

let people: Record<Role | "outsider", Client>;
test.beforeAll(async ({ svc }) => {
  people = {
    owner: await svc.signedIn("Olive Owner"),
    admin: await svc.signedIn("Adam Admin"),
    member: await svc.signedIn("Mia Member"),
    viewer: await svc.signedIn("Vic Viewer"),
    outsider: await svc.signedIn("Otto Outsider"),
  };
});

/** A shared (not personal) location of the owner with one person of every other role. */
async function sharedLocation(svc: TestService, name: string): Promise<string> {
  const res = await people.owner.post("/api/v1/locations", { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.id as string;
  for (const role of ["admin", "member", "viewer"] as const)
    await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId: id, userId: people[role].userId, role });
  return id;
}

const roleOf = async (svc: TestService, loc: string, userId: string) =>
  (await rows<{ role: Role }>(svc.database.db, sql`SELECT role FROM memberships WHERE location_id = ${loc} AND user_id = ${userId} AND deleted_at IS NULL`))[0]
    ?.role;
const listed = async (c: Client) => ((await c.get("/api/v1/locations")).body.items as { id: string }[]).map((l) => l.id);

describe("transfer", () => {
  test("the owner makes a member the owner and becomes an admin", async ({ svc }) => {
    const loc = await sharedLocation(svc, "Cabin");
    const res = await people.owner.post(`/api/v1/locations/${loc}/transfer`, { userId: people.member.userId, confirm: "Cabin" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: loc, role: "admin" });
    expect(await roleOf(svc, loc, people.member.userId)).toBe("owner");
    expect(await roleOf(svc, loc, people.owner.userId)).toBe("admin");
    // The former owner is an admin now: owner-only acts are refused.
    expectError(await people.owner.post(`/api/v1/locations/${loc}/transfer`, { userId: people.admin.userId, confirm: "Cabin" }), 403, "forbidden");
    const history = await rows<{ summary_key: string }>(
      svc.database.db,
      sql`SELECT summary_key FROM history_entries WHERE location_id = ${loc} AND action = 'member.updated'`,
    );
    expect(history).toHaveLength(2);
  });

  test("admins, members and viewers are refused, outsiders see nothing, a token is refused", async ({ svc }) => {
    const loc = await sharedLocation(svc, "Shed");
    for (const role of ["admin", "member", "viewer"] as const) {
      expectError(await people[role].post(`/api/v1/locations/${loc}/transfer`, { userId: people[role].userId, confirm: "Shed" }), 403, "forbidden");
    }
    expectError(await people.outsider.post(`/api/v1/locations/${loc}/transfer`, { userId: people.outsider.userId, confirm: "Shed" }), 404, "not_found");
    const made = await people.owner.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [loc] });
    const bearer = { authorization: `Bearer ${made.body.secret as string}` };
    const c = svc.client();
    expectError(await c.request("POST", `/api/v1/locations/${loc}/transfer`, { userId: people.admin.userId, confirm: "Shed" }, bearer), 403, "forbidden");
    expectError(await c.request("DELETE", `/api/v1/locations/${loc}`, { confirm: "Shed" }, bearer), 403, "forbidden");
    expect(await roleOf(svc, loc, people.owner.userId)).toBe("owner");
  });

  test("the new owner must be a member; the name must be typed; the personal location stays", async ({ svc }) => {
    const loc = await sharedLocation(svc, "Garage");
    expectError(await people.owner.post(`/api/v1/locations/${loc}/transfer`, { userId: people.outsider.userId, confirm: "Garage" }), 404, "not_found");
    expectError(await people.owner.post(`/api/v1/locations/${loc}/transfer`, { userId: people.admin.userId, confirm: "garage!" }), 400, "validation_failed");
    expectError(await people.owner.post(`/api/v1/locations/${loc}/transfer`, { userId: people.owner.userId, confirm: "Garage" }), 400, "validation_failed");
    expectError(await people.owner.post(`/api/v1/locations/${loc}/transfer`, { userId: people.admin.userId }), 400, "validation_failed");
    expect(await roleOf(svc, loc, people.owner.userId)).toBe("owner");
    const personal = (await people.owner.get("/api/v1/me")).body.locations.find((l: { isPersonal: boolean }) => l.isPersonal);
    await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId: personal.id, userId: people.admin.userId, role: "admin" });
    expectError(await people.owner.post(`/api/v1/locations/${personal.id}/transfer`, { userId: people.admin.userId, confirm: personal.name }), 409, "conflict");
    expectError(await people.owner.delete(`/api/v1/locations/${personal.id}`, { confirm: personal.name }), 409, "conflict");
  });
});

describe("delete", () => {
  test("the owner deletes with the name typed: it is gone for every member, into a 30-day trash", async ({ svc }) => {
    const loc = await sharedLocation(svc, "Old Flat");
    const invite = await people.owner.post(`/api/v1/locations/${loc}/invites`, { role: "member" });
    expect(await listed(people.viewer)).toContain(loc);
    expectError(await people.owner.delete(`/api/v1/locations/${loc}`, { confirm: "Old" }), 400, "validation_failed");
    expectError(await people.owner.delete(`/api/v1/locations/${loc}`), 400, "validation_failed");
    const res = await people.owner.delete(`/api/v1/locations/${loc}`, { confirm: " Old Flat " });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const days = (Date.parse(res.body.purgeAfter) - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    for (const p of ["owner", "admin", "member", "viewer"] as const) {
      expect(await listed(people[p])).not.toContain(loc);
      expectError(await people[p].get(`/api/v1/locations/${loc}`), 404, "not_found");
    }
    // Its rows stay (the trash); its pending invites stop working.
    const [kept] = await rows<{ deleted: boolean }>(svc.database.db, sql`SELECT deleted_at IS NOT NULL AS deleted FROM locations WHERE id = ${loc}`);
    expect(kept!.deleted).toBe(true);
    const joiner = await svc.signedIn("Latecomer");
    expectError(await joiner.post("/api/v1/invites/accept", { token: invite.body.token }), 404, "not_found");
    expectError(await people.owner.delete(`/api/v1/locations/${loc}`, { confirm: "Old Flat" }), 404, "not_found");
  });

  test("admins, members and viewers cannot delete; outsiders see nothing", async ({ svc }) => {
    const loc = await sharedLocation(svc, "Studio");
    for (const role of ["admin", "member", "viewer"] as const)
      expectError(await people[role].delete(`/api/v1/locations/${loc}`, { confirm: "Studio" }), 403, "forbidden");
    expectError(await people.outsider.delete(`/api/v1/locations/${loc}`, { confirm: "Studio" }), 404, "not_found");
    expect(await listed(people.member)).toContain(loc);
  });
});

describe("trash", () => {
  test("the owner lists and restores a deleted location; everyone else sees neither", async ({ svc }) => {
    const loc = await sharedLocation(svc, "Attic");
    const thing = await people.member.post(`/api/v1/locations/${loc}/things`, { name: "Rocking horse" });
    expect(thing.status, JSON.stringify(thing.body)).toBe(201);
    const link = await people.owner.post(`/api/v1/locations/${loc}/invites`, { role: "viewer" });
    const made = await people.owner.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [loc] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect((await people.owner.delete(`/api/v1/locations/${loc}`, { confirm: "Attic" })).status).toBe(200);

    const trash = await people.owner.get("/api/v1/trash/locations");
    expect(trash.status).toBe(200);
    const item = (trash.body.items as { id: string; name: string; deletedAt: string; purgeAfter: string }[]).find((l) => l.id === loc);
    expect(item).toMatchObject({ name: "Attic" });
    expect(Date.parse(item!.purgeAfter) - Date.parse(item!.deletedAt)).toBe(30 * 86400_000);
    for (const role of ["admin", "member", "viewer", "outsider"] as const) {
      expect(((await people[role].get("/api/v1/trash/locations")).body.items as { id: string }[]).map((l) => l.id)).not.toContain(loc);
      expectError(await people[role].post(`/api/v1/locations/${loc}/restore`), 404, "not_found");
    }
    const bearer = { authorization: `Bearer ${made.body.secret as string}` };
    expectError(await svc.client().request("GET", "/api/v1/trash/locations", undefined, bearer), 403, "forbidden");
    expectError(await svc.client().request("POST", `/api/v1/locations/${loc}/restore`, undefined, bearer), 403, "forbidden");

    const back = await people.owner.post(`/api/v1/locations/${loc}/restore`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ id: loc, role: "owner" });
    for (const p of ["owner", "admin", "member", "viewer"] as const) expect(await listed(people[p])).toContain(loc);
    expect((await people.viewer.get(`/api/v1/things/${thing.body.id as string}`)).body).toMatchObject({ name: "Rocking horse" });
    // Not in the trash any more, and a live location cannot be "restored".
    expect(((await people.owner.get("/api/v1/trash/locations")).body.items as { id: string }[]).map((l) => l.id)).not.toContain(loc);
    expectError(await people.owner.post(`/api/v1/locations/${loc}/restore`), 404, "not_found");
    // What the delete revoked stays revoked: a link that stopped working does not start again.
    const joiner = await svc.signedIn("Late Viewer");
    expectError(await joiner.post("/api/v1/invites/accept", { token: link.body.token }), 404, "not_found");
  });

  test("the list pages with next_cursor, most recently deleted first", async ({ svc }) => {
    const names = ["T1", "T2", "T3"];
    const ids: string[] = [];
    for (const name of names) {
      const id = await sharedLocation(svc, name);
      expect((await people.owner.delete(`/api/v1/locations/${id}`, { confirm: name })).status).toBe(200);
      ids.push(id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { id: string }[]; next_cursor: string | null } } = await people.owner.get(
        `/api/v1/trash/locations?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
      );
      seen.push(...page.body.items.map((l) => l.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse());
  });
});
