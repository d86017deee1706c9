/**
 * Managed accounts (spec "Managed accounts" 1-3, Limits: 20 per location) and every row of the
 * spec's "Managed-account password" state table, through the real HTTP server.
 */
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { MAX_MANAGED_ACCOUNTS } from "../../../shared/managed-accounts.js";
import { rows, sql } from "../../../server/db/client.js";
import { type HttpClient, type TestService } from "../../support/app.js";
import { expectError, keysDeep } from "../../support/auth.js";
import { locationWithRoles, type Client } from "../../support/members.js";

let locationId: string;
let as: Awaited<ReturnType<typeof locationWithRoles>>["as"];

test.beforeAll(async ({ svc }) => {
  ({ locationId, as } = await locationWithRoles(svc));
});

let n = 0;
const username = () => `kid_${++n}_${Date.now() % 100000}`;
const PASSWORD = "my own long password";

async function create(by: HttpClient, name = username(), loc = locationId) {
  const res = await by.post(`/api/v1/locations/${loc}/managed-accounts`, { username: name, displayName: `Kid ${n}` });
  return { res, username: name.toLowerCase() };
}

const redeem = (svc: TestService, body: { username: string; code: string; password: string }, c = svc.client()) => c.post("/api/v1/auth/reset-code", body);
const signIn = (svc: TestService, name: string, password: string, c = svc.client()) => c.post("/api/v1/auth/sign-in/username", { username: name, password });

/** Nothing in a JSON body mentions the synthetic address. */
function expectNoSyntheticAddress(body: unknown) {
  expect(JSON.stringify(body)).not.toMatch(/managed\.invalid/);
}

describe("managed-account password: no password known -> one-time code issued", () => {
  test("an owner creates one and is handed a one-time code; the address is never shown", async ({ svc }) => {
    const { res, username: name } = await create(as.owner);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["code", "id"]);
    expect(res.body.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expectNoSyntheticAddress(res.body);
    const members = await as.owner.get(`/api/v1/locations/${locationId}/members`);
    const member = members.body.items.find((m: { userId: string }) => m.userId === res.body.id);
    expect(member).toMatchObject({ role: "member", email: null });
    expectNoSyntheticAddress(members.body);
    // No password is known yet: nothing signs in.
    expect((await signIn(svc, name, PASSWORD)).status).toBe(401);
  });

  test("an admin may create one; a member, a viewer and an outsider may not", async () => {
    expect((await create(as.admin)).res.status).toBe(201);
    expectError((await create(as.member)).res, 403, "forbidden");
    expectError((await create(as.viewer)).res, 403, "forbidden");
    expectError((await create(as.outsider)).res, 404, "not_found");
  });

  test("a taken username is refused", async () => {
    const { username: name } = await create(as.owner);
    expectError((await create(as.owner, name)).res, 409, "conflict");
    expectError((await create(as.owner, name.toUpperCase())).res, 409, "conflict");
  });

  test("bad input is refused with 400", async () => {
    for (const body of [
      { username: "ab", displayName: "X" },
      { username: "no spaces here", displayName: "X" },
      { username: "okname", displayName: "" },
      { username: "okname" },
    ]) {
      expectError(await as.owner.post(`/api/v1/locations/${locationId}/managed-accounts`, body), 400, "validation_failed");
    }
  });

  test(`a location holds at most ${MAX_MANAGED_ACCOUNTS} managed accounts`, async ({ svc }) => {
    const owner = await svc.signedIn("Busy Owner");
    const loc = (await owner.get("/api/v1/me")).body.locations[0].id as string;
    const made = await Promise.all(Array.from({ length: MAX_MANAGED_ACCOUNTS }, () => create(owner, username(), loc)));
    expect(made.map((m) => m.res.status)).toEqual(Array(MAX_MANAGED_ACCOUNTS).fill(201));
    const over = await create(owner, username(), loc);
    expectError(over.res, 409, "conflict");
    // Other locations are counted separately.
    expect((await create(as.owner)).res.status).toBe(201);
  });
});

describe("removing a managed account", () => {
  test("removing its member signs it out for good and frees its place among the 20", async ({ svc }) => {
    const owner = await svc.signedIn("Full House");
    const loc = (await owner.get("/api/v1/me")).body.locations[0].id as string;
    const made = await Promise.all(Array.from({ length: MAX_MANAGED_ACCOUNTS }, () => create(owner, username(), loc)));
    const first = made[0]!;
    expect((await redeem(svc, { username: first.username, code: first.res.body.code, password: PASSWORD })).status).toBe(200);
    const device = svc.client();
    expect((await signIn(svc, first.username, PASSWORD, device)).status).toBe(200);
    expectError((await create(owner, username(), loc)).res, 409, "conflict");

    const removed = await owner.delete(`/api/v1/locations/${loc}/members/${first.res.body.id as string}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expectError(await device.get("/api/v1/me"), 401, "unauthenticated");
    expect((await signIn(svc, first.username, PASSWORD)).status).toBe(401);
    expectError(await owner.post(`/api/v1/locations/${loc}/managed-accounts/${first.res.body.id as string}/reset`, {}), 404, "not_found");
    // Its place is free; the user row stays, so history still names who did what.
    expect((await create(owner, username(), loc)).res.status).toBe(201);
    const [kept] = await rows<{ name: string }>(svc.database.db, sql`SELECT name FROM users WHERE id = ${first.res.body.id as string}::uuid`);
    expect(kept?.name).toMatch(/^Kid/);
  });
});

describe("managed-account password: one-time code issued -> password set by the person", () => {
  test("a valid code sets the password; the person signs in with the username", async ({ svc }) => {
    const { res, username: name } = await create(as.owner);
    const done = await redeem(svc, { username: name, code: res.body.code.toLowerCase().replace(/-/g, " "), password: PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ status: true });
    const device = svc.client();
    const signedIn = await signIn(svc, name, PASSWORD, device);
    expect(signedIn.status).toBe(200);
    expect(keysDeep(signedIn.body)).not.toContain("token");
    expectNoSyntheticAddress(signedIn.body);
    const me = await device.get("/api/v1/me");
    expect(me.body.user).toMatchObject({ username: name, email: null });
    expect(me.body.locations.map((l: { id: string }) => l.id)).toContain(locationId);
    expectNoSyntheticAddress((await device.get("/api/v1/auth/get-session")).body);
    const totp = await device.post("/api/v1/auth/two-factor/enable", { password: PASSWORD });
    expect(totp.status).toBe(200);
    expectNoSyntheticAddress(totp.body);
  });

  test("the code works once", async ({ svc }) => {
    const { res, username: name } = await create(as.owner);
    expect((await redeem(svc, { username: name, code: res.body.code, password: PASSWORD })).status).toBe(200);
    expectError(await redeem(svc, { username: name, code: res.body.code, password: "attacker password" }), 400, "validation_failed");
    expect((await signIn(svc, name, "attacker password")).status).toBe(401);
  });

  test("a wrong code, a wrong username and another account's code are one answer", async ({ svc }) => {
    const a = await create(as.owner);
    const b = await create(as.owner);
    const answers = [
      await redeem(svc, { username: a.username, code: "AAAA-BBBB-CCCC", password: PASSWORD }),
      await redeem(svc, { username: "nobody_here", code: a.res.body.code, password: PASSWORD }),
      await redeem(svc, { username: a.username, code: b.res.body.code, password: PASSWORD }),
    ];
    for (const r of answers) expectError(r, 400, "validation_failed");
    expect(new Set(answers.map((r) => r.body.error.message)).size).toBe(1);
  });

  test("wrong codes count as failures for the username", async ({ svc }) => {
    const { res, username: name } = await create(as.owner);
    const device = svc.client();
    for (let i = 0; i < 3; i++) await redeem(svc, { username: name, code: `WRNG-CODE-000${i}`, password: PASSWORD }, device);
    expectError(await redeem(svc, { username: name, code: res.body.code, password: PASSWORD }, device), 429, "rate_limited");
  });

  test("an admin's reset: the old password stops working, devices are signed out, the new code sets a new one", async ({ svc }) => {
    const { res, username: name } = await create(as.owner);
    await redeem(svc, { username: name, code: res.body.code, password: PASSWORD });
    const device = svc.client();
    expect((await signIn(svc, name, PASSWORD, device)).status).toBe(200);
    const reset = await as.admin.post(`/api/v1/locations/${locationId}/managed-accounts/${res.body.id}/reset`, {});
    expect(reset.status).toBe(200);
    expect(reset.body.id).toBe(res.body.id);
    expect(reset.body.code).not.toBe(res.body.code);
    expectError(await device.get("/api/v1/me"), 401, "unauthenticated");
    expect((await signIn(svc, name, PASSWORD)).status).toBe(401);
    expectError(await redeem(svc, { username: name, code: res.body.code, password: PASSWORD }), 400, "validation_failed");
    expect((await redeem(svc, { username: name, code: reset.body.code, password: "second own password" })).status).toBe(200);
    expect((await signIn(svc, name, "second own password")).status).toBe(200);
  });

  test("only owners and admins of the location that made it can reset it", async ({ svc }) => {
    const { res } = await create(as.owner);
    const path = `/api/v1/locations/${locationId}/managed-accounts/${res.body.id}/reset`;
    expectError(await as.member.post(path, {}), 403, "forbidden");
    expectError(await as.outsider.post(path, {}), 404, "not_found");
    const other = await svc.signedIn();
    const otherLoc = (await other.get("/api/v1/me")).body.locations[0].id as string;
    expectError(await other.post(`/api/v1/locations/${otherLoc}/managed-accounts/${res.body.id}/reset`, {}), 404, "not_found");
  });

  test("a managed account has no email to change", async ({ svc }) => {
    const { res, username: name } = await create(as.owner);
    await redeem(svc, { username: name, code: res.body.code, password: PASSWORD });
    const device: Client = Object.assign(svc.client(), { email: "", userId: res.body.id as string });
    await signIn(svc, name, PASSWORD, device);
    expectError(await device.post("/api/v1/me/email", { email: "kid@example.test", password: PASSWORD }), 403, "forbidden");
  });
});
