/**
 * Members and invites over HTTP (spec "Roles in a location", "Sign-up" 2). Sign-up is closed in
 * this file, as on a default server; the instance setting opens it while test people are made.
 */
import { describe, expect, onTestFinished } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { memberListSchema, memberSchema, type Member } from "../../../shared/members.js";
import type { Role } from "../../../shared/roles.js";
import { rows, sql } from "../../../server/db/client.js";
import { hashToken } from "../../../server/modules/members/invites.js";
import { type TestService } from "../../support/app.js";
import { locationWithRoles, type Client } from "../../support/members.js";

test.override("serviceEnv", { SVC_SIGNUP_OPEN: "0" });

type Team = Awaited<ReturnType<typeof locationWithRoles>>;
let shared: Team;
test.beforeAll(async ({ svc }) => {
  await setSignupOpen(svc, true);
  shared = await locationWithRoles(svc);
});

async function setSignupOpen(svc: TestService, open: boolean) {
  await svc.database.db.execute(
    sql`INSERT INTO instance_settings (key, value) VALUES ('signup_open', ${JSON.stringify(open)}::jsonb)
        ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
  );
}

const membersPath = (loc: string) => `/api/v1/locations/${loc}/members`;
const memberPath = (loc: string, userId: string) => `/api/v1/locations/${loc}/members/${userId}`;

async function invite(by: Client, loc: string, role: Exclude<Role, "owner">, email?: string): Promise<string> {
  const res = await by.post(`/api/v1/locations/${loc}/invites`, { role, ...(email ? { email } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.token as string;
}

/** A new person who joins `loc` through an invite made by `by`. */
async function join(svc: TestService, by: Client, loc: string, role: Exclude<Role, "owner">, name: string): Promise<Client> {
  const p = await svc.signedIn(name);
  const res = await p.post("/api/v1/invites/accept", { token: await invite(by, loc, role) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return p;
}

async function members(by: Client, loc: string): Promise<Member[]> {
  const res = await by.get(membersPath(loc));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return memberListSchema.parse(res.body).items;
}

async function roleOf(t: Team, p: Client): Promise<Role | undefined> {
  return (await members(t.as.owner, t.locationId)).find((m) => m.userId === p.userId)?.role;
}

describe("invites", () => {
  test("an owner and an admin can invite up to admin, and nobody can invite an owner", async () => {
    const { locationId: loc, as } = shared;
    const res = await as.owner.post(`/api/v1/locations/${loc}/invites`, { role: "admin", email: "New.Person@Example.test" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(String), token: expect.stringMatching(/^inv_/), expiresAt: expect.any(String), mailed: true });
    const days = (Date.parse(res.body.expiresAt) - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    await invite(as.admin, loc, "admin");
    for (const by of [as.owner, as.admin]) {
      const asOwner = await by.post(`/api/v1/locations/${loc}/invites`, { role: "owner" });
      expect(asOwner.status).toBe(400);
      expect(asOwner.body.error.code).toBe("validation_failed");
    }
  });

  test("the invite token is shown once and only its hash is stored", async ({ svc }) => {
    const token = await invite(shared.as.owner, shared.locationId, "member");
    const stored = await rows<{ token_hash: string }>(svc.database.db, sql`SELECT token_hash FROM invites`);
    expect(stored.map((r) => r.token_hash)).toContain(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  test("members and viewers cannot invite (403) and an outsider is told the location does not exist (404)", async () => {
    const { locationId: loc, as } = shared;
    for (const p of [as.member, as.viewer]) {
      const res = await p.post(`/api/v1/locations/${loc}/invites`, { role: "viewer" });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    const res = await as.outsider.post(`/api/v1/locations/${loc}/invites`, { role: "viewer" });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  test("accepting an invite gives the signed-in user the invite's role in that location", async ({ svc }) => {
    const token = await invite(shared.as.owner, shared.locationId, "member");
    const newcomer = await svc.signedIn("Nia Newcomer");
    const res = await newcomer.post("/api/v1/invites/accept", { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ locationId: shared.locationId, role: "member" });
    expect(await roleOf(shared, newcomer)).toBe("member");
  });

  test("accepting an invite needs a signed-in user", async ({ svc }) => {
    const token = await invite(shared.as.owner, shared.locationId, "viewer");
    const res = await svc.client().post("/api/v1/invites/accept", { token });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("unauthenticated");
  });

  test("an invite works once: accepting it again is 404 not_found", async ({ svc }) => {
    const token = await invite(shared.as.owner, shared.locationId, "viewer");
    const first = await svc.signedIn("Flo First");
    expect((await first.post("/api/v1/invites/accept", { token })).status).toBe(200);
    for (const p of [first, await svc.signedIn("Sid Second")]) {
      const again = await p.post("/api/v1/invites/accept", { token });
      expect(again.status).toBe(404);
      expect(again.body.error.code).toBe("not_found");
    }
  });

  test("an expired invite and an unknown token are refused with 404 not_found", async ({ svc }) => {
    const token = await invite(shared.as.owner, shared.locationId, "member");
    await svc.database.db.execute(sql`UPDATE invites SET expires_at = now() - interval '1 second' WHERE token_hash = ${hashToken(token)}`);
    const p = await svc.signedIn("Lou Late");
    for (const t of [token, "inv_no-such-token"]) {
      const res = await p.post("/api/v1/invites/accept", { token: t });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect(await roleOf(shared, p)).toBeUndefined();
  });

  test("an invite bound to an email is 404 for anyone else and still works for that address", async ({ svc }) => {
    const addressee = await svc.signedIn("Ada Addressee");
    const token = await invite(shared.as.owner, shared.locationId, "admin", addressee.email.toUpperCase());
    const wrong = await (await svc.signedIn("Ozzy Other")).post("/api/v1/invites/accept", { token });
    expect(wrong.status).toBe(404);
    expect(wrong.body.error.code).toBe("not_found");
    const right = await addressee.post("/api/v1/invites/accept", { token });
    expect(right.status).toBe(200);
    expect(right.body).toEqual({ locationId: shared.locationId, role: "admin" });
  });
});

describe("sign-up while sign-up is closed", () => {
  const signUp = (svc: TestService, body: Record<string, string>) =>
    svc.client().post("/api/v1/auth/sign-up", { password: "correct horse battery", name: "Ivy Invited", ...body });

  test("sign-up with a live invite succeeds and makes the membership", async ({ svc }) => {
    const token = await invite(shared.as.owner, shared.locationId, "viewer");
    await setSignupOpen(svc, false);
    onTestFinished(() => setSignupOpen(svc, true));
    const email = `ivy-${Date.now()}@example.test`;
    const up = await signUp(svc, { email, invite: token });
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const c = svc.client();
    expect((await c.post("/api/v1/auth/sign-in/email", { email, password: "correct horse battery" })).status).toBe(200);
    const res = await c.get(membersPath(shared.locationId));
    expect(res.status).toBe(200);
    expect(memberListSchema.parse(res.body).items.find((m) => m.email === email)?.role).toBe("viewer");
  });

  test("sign-up without an invite, or with a used one, is refused with 403 signup_closed", async ({ svc }) => {
    const token = await invite(shared.as.owner, shared.locationId, "viewer");
    expect((await (await svc.signedIn("Uma User")).post("/api/v1/invites/accept", { token })).status).toBe(200);
    await setSignupOpen(svc, false);
    onTestFinished(() => setSignupOpen(svc, true));
    for (const extra of [{}, { invite: token }]) {
      const res = await signUp(svc, { email: `closed-${Date.now()}@example.test`, ...extra });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("signup_closed");
    }
  });
});

describe("listing members", () => {
  test("any member lists every member of the location, each a valid Member", async () => {
    const { locationId: loc, as } = shared;
    for (const p of [as.owner, as.admin, as.member, as.viewer]) {
      const res = await p.get(membersPath(loc));
      expect(res.status).toBe(200);
      const items = (res.body.items as unknown[]).map((m) => memberSchema.parse(m));
      const byUser = new Map(items.map((m) => [m.userId, m]));
      expect(byUser.get(as.owner.userId)).toMatchObject({ role: "owner", displayName: "Olive Owner", email: as.owner.email, rowVersion: 1 });
      expect(byUser.get(as.admin.userId)?.role).toBe("admin");
      expect(byUser.get(as.member.userId)?.role).toBe("member");
      expect(byUser.get(as.viewer.userId)?.role).toBe("viewer");
      expect(items.every((m) => m.joinedAt.endsWith("Z"))).toBe(true);
    }
  });

  test("an outsider gets 404 not_found (never 403), as for a location that does not exist", async () => {
    for (const loc of [shared.locationId, "0190a000-0000-7000-8000-000000000000"]) {
      const res = await shared.as.outsider.get(membersPath(loc));
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found");
    }
    expect((await shared.as.outsider.get(membersPath("not-a-uuid"))).status).toBe(400);
  });
});

describe("changing roles and removing members", () => {
  let t: Team;
  let loc: string;
  test.beforeAll(async ({ svc }) => {
    t = await locationWithRoles(svc);
    loc = t.locationId;
  });

  test("the owner changes an admin's role and gets the updated member back", async () => {
    const res = await t.as.owner.patch(memberPath(loc, t.as.admin.userId), { role: "member", rowVersion: 1 });
    expect(res.status).toBe(200);
    expect(memberSchema.parse(res.body)).toMatchObject({ userId: t.as.admin.userId, role: "member", rowVersion: 2 });
    const back = await t.as.owner.patch(memberPath(loc, t.as.admin.userId), { role: "admin" });
    expect(back.body).toMatchObject({ role: "admin", rowVersion: 3 });
  });

  test("an admin changes a member and a viewer but not another admin or the owner", async ({ svc }) => {
    const { as } = t;
    const other = await join(svc, as.owner, loc, "admin", "Ola Otheradmin");
    for (const [target, role] of [
      [as.member, "viewer"],
      [as.member, "member"],
      [as.viewer, "member"],
      [as.viewer, "viewer"],
    ] as const) {
      expect((await as.admin.patch(memberPath(loc, target.userId), { role })).status).toBe(200);
    }
    for (const target of [other, as.owner]) {
      const res = await as.admin.patch(memberPath(loc, target.userId), { role: "viewer" });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe("forbidden");
    }
    expect(await roleOf(t, other)).toBe("admin");
    expect(await roleOf(t, as.owner)).toBe("owner");
  });

  test("nobody makes someone owner through a role change", async () => {
    for (const by of [t.as.owner, t.as.admin]) {
      expect((await by.patch(memberPath(loc, t.as.member.userId), { role: "owner" })).status).toBe(403);
    }
    expect(await roleOf(t, t.as.member)).toBe("member");
  });

  test("members and viewers cannot change or remove anyone else (403)", async () => {
    const everyone = [t.as.owner, t.as.admin, t.as.member, t.as.viewer];
    for (const by of [t.as.member, t.as.viewer]) {
      for (const target of everyone.filter((p) => p !== by)) {
        const patch = await by.patch(memberPath(loc, target.userId), { role: "viewer" });
        expect(patch.status).toBe(403);
        const del = await by.delete(memberPath(loc, target.userId));
        expect(del.status).toBe(403);
        expect(del.body.error.code).toBe("forbidden");
      }
    }
    const roles = await Promise.all(everyone.map((p) => roleOf(t, p)));
    expect(roles).toEqual(["owner", "admin", "member", "viewer"]);
  });

  test("a stale rowVersion is refused with 409 version_conflict and the current version", async () => {
    const { owner, admin, viewer } = t.as;
    const seen = (await members(owner, loc)).find((m) => m.userId === viewer.userId)!;
    expect((await admin.patch(memberPath(loc, viewer.userId), { role: "member", rowVersion: seen.rowVersion })).status).toBe(200);
    const res = await owner.patch(memberPath(loc, viewer.userId), { role: "viewer", rowVersion: seen.rowVersion });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: "version_conflict", details: { rowVersion: seen.rowVersion + 1 } });
    expect(await roleOf(t, viewer)).toBe("member");
    expect((await owner.patch(memberPath(loc, viewer.userId), { role: "viewer", rowVersion: seen.rowVersion + 1 })).status).toBe(200);
  });

  test("an outsider gets 404 for role changes and removals", async () => {
    expect((await t.as.outsider.patch(memberPath(loc, t.as.member.userId), { role: "viewer" })).status).toBe(404);
    expect((await t.as.outsider.delete(memberPath(loc, t.as.member.userId))).status).toBe(404);
  });

  test("an admin removes a member but not another admin or the owner", async ({ svc }) => {
    const { as } = t;
    const extra = await join(svc, as.owner, loc, "member", "Ed Extra");
    const other = await join(svc, as.owner, loc, "admin", "Al Anotheradmin");
    const res = await as.admin.delete(memberPath(loc, extra.userId));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, txid: expect.any(String) });
    expect(await roleOf(t, extra)).toBeUndefined();
    expect((await extra.get(membersPath(loc))).status).toBe(404);
    for (const target of [other, as.owner]) {
      const refused = await as.admin.delete(memberPath(loc, target.userId));
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("forbidden");
    }
    expect(await roleOf(t, other)).toBe("admin");
    expect(await roleOf(t, as.owner)).toBe("owner");
  });

  test("the owner cannot leave the location", async () => {
    const res = await t.as.owner.delete(memberPath(loc, t.as.owner.userId));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(await roleOf(t, t.as.owner)).toBe("owner");
  });

  async function leaves(p: Client) {
    const res = await p.delete(memberPath(loc, p.userId));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await roleOf(t, p)).toBeUndefined();
    expect((await p.get(membersPath(loc))).status).toBe(404);
  }

  test("an admin can leave, after which the location reads as not found", () => leaves(t.as.admin));
  test("a member can leave, after which the location reads as not found", () => leaves(t.as.member));
  // Known gap: history_entries' insert policy admits only owner, admin and member, so the
  // database refuses a viewer's own "member.left" row. Flip to test() once a policy allows it.
  test("a viewer can leave, after which the location reads as not found", () => leaves(t.as.viewer));
});
