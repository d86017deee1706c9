/**
 * Passkeys (spec "Ways to sign in": relying party = host of the public URL; a passkey with user
 * verification counts as two factors) with a software authenticator made in the test: register,
 * sign in with and without user verification, step a pending session up, list and delete.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { REAUTH_WINDOW_MS } from "../../../server/auth/reauth.js";
import { authAccounts, authSessions, locations, memberships } from "../../../server/db/schema/index.js";
import { type HttpClient, type TestService } from "../../support/app.js";
import { enableTotp, expectError, keysDeep, signInWithPassword, type Client } from "../../support/auth.js";
import { softAuthenticator, type SoftAuthenticator } from "../../support/webauthn.js";

const P = "/api/v1/auth/passkey";
const rp = (svc: TestService) => ({ origin: svc.config.publicUrl.origin, rpId: svc.config.publicUrl.hostname });

async function register(c: HttpClient, key: SoftAuthenticator, userVerified = true) {
  const options = await c.post(`${P}/register/options`, {});
  expect(options.status).toBe(200);
  const res = await c.post(`${P}/register/verify`, { response: key.register(options.body, { userVerified }), name: "Test key" });
  return res;
}

async function passkeySignIn(c: HttpClient, key: SoftAuthenticator, opts: { userVerified?: boolean; origin?: string; rpId?: string } = {}) {
  const options = await c.post(`${P}/authenticate/options`, {});
  expect(options.status).toBe(200);
  return c.post(`${P}/authenticate/verify`, { response: key.authenticate(options.body, opts) });
}

/** A user with a registered passkey and a personal location that requires two-factor. */
async function userWithPasskey(svc: TestService): Promise<{ user: Client; key: SoftAuthenticator; locationId: string }> {
  const user = await svc.signedIn("Pat Passkey");
  const key = softAuthenticator(rp(svc));
  expect((await register(user, key)).status).toBe(200);
  const [row] = await svc.database.db
    .select({ id: locations.id })
    .from(memberships)
    .innerJoin(locations, eq(locations.id, memberships.locationId))
    .where(and(eq(memberships.userId, user.userId), eq(locations.isPersonal, true)));
  await svc.database.db.update(locations).set({ requiresTwoFactor: true }).where(eq(locations.id, row!.id));
  return { user, key, locationId: row!.id };
}

const visible = async (c: HttpClient) => ((await c.get("/api/v1/me")).body.locations as { id: string }[]).map((l) => l.id);

describe("registration", () => {
  test("the relying party is the host of the public URL; the passkey is listed, without secrets", async ({ svc }) => {
    const c = await svc.signedIn();
    const options = await c.post(`${P}/register/options`, {});
    expect(options.body.rp.id).toBe(svc.config.publicUrl.hostname);
    expect(options.body.user.name).toBe(c.email);
    const key = softAuthenticator(rp(svc));
    const res = await c.post(`${P}/register/verify`, { response: key.register(options.body) });
    expect(res.status).toBe(200);
    const list = await c.get(`${P}/list`);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0].id).toBe(res.body.id);
    expect(keysDeep(list.body)).not.toContain("publicKey");
  });

  test("a response made for another origin or relying party is refused", async ({ svc }) => {
    const c = await svc.signedIn();
    for (const wrong of [{ origin: "https://evil.example" }, { rpId: "evil.example" }]) {
      const options = await c.post(`${P}/register/options`, {});
      const res = await c.post(`${P}/register/verify`, { response: softAuthenticator(rp(svc)).register(options.body, wrong) });
      expectError(res, 401, "unauthenticated");
    }
    expect((await c.get(`${P}/list`)).body.items).toHaveLength(0);
  });

  test("registering needs a session", async ({ svc }) => {
    expect((await svc.client().post(`${P}/register/options`, {})).status).toBe(401);
  });
});

describe("signing in with a passkey", () => {
  test("with user verification it is two factors: a full session that sees two-factor locations", async ({ svc }) => {
    const { user, key, locationId } = await userWithPasskey(svc);
    const device = svc.client();
    const res = await passkeySignIn(device, key, { userVerified: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { id: user.userId }, userVerified: true });
    expect(res.body.twoFactorRedirect).toBeUndefined();
    expect(keysDeep(res.body)).not.toContain("token");
    expect(await visible(device)).toContain(locationId);
  });

  test("without user verification it is one factor: two-factor locations stay hidden", async ({ svc }) => {
    const { user, key, locationId } = await userWithPasskey(svc);
    const device = svc.client();
    const res = await passkeySignIn(device, key, { userVerified: false });
    expect(res.status).toBe(200);
    expect((await device.get("/api/v1/me")).body.user.id).toBe(user.userId);
    expect(await visible(device)).not.toContain(locationId);
  });

  test("without user verification, a user with TOTP on gets a pending session", async ({ svc }) => {
    const { user, key } = await userWithPasskey(svc);
    await enableTotp(user);
    const device = svc.client();
    const res = await passkeySignIn(device, key, { userVerified: false });
    expect(res.status).toBe(200);
    expect(res.body.twoFactorRedirect).toBe(true);
    expectError(await device.get("/api/v1/me"), 403, "mfa_required");
    // Stepping up with user verification proves the factor in place.
    const up = await passkeySignIn(device, key, { userVerified: true });
    expect(up.status).toBe(200);
    expect((await device.get("/api/v1/me")).status).toBe(200);
  });

  test("a pending password sign-in is finished by a verified passkey, not by an unverified one", async ({ svc }) => {
    const { user, key } = await userWithPasskey(svc);
    await enableTotp(user);
    const { c: device } = await signInWithPassword(svc, user.email);
    expectError(await device.get("/api/v1/me"), 403, "mfa_required");
    const options = await device.post(`${P}/authenticate/options`, {});
    expect(options.body.allowCredentials.map((c: { id: string }) => c.id)).toEqual([key.credentialId.toString("base64url")]);
    const weak = await device.post(`${P}/authenticate/verify`, { response: key.authenticate(options.body, { userVerified: false }) });
    expectError(weak, 403, "forbidden");
    expectError(await device.get("/api/v1/me"), 403, "mfa_required");
    expect((await passkeySignIn(device, key, { userVerified: true })).status).toBe(200);
    expect((await device.get("/api/v1/me")).status).toBe(200);
  });

  test("a phishing origin, a foreign relying party, a replay and an unknown key are refused", async ({ svc }) => {
    const { key } = await userWithPasskey(svc);
    const device = svc.client();
    expectError(await passkeySignIn(device, key, { origin: "https://evil.example" }), 401, "unauthenticated");
    expectError(await passkeySignIn(device, key, { rpId: "evil.example" }), 401, "unauthenticated");
    const options = await device.post(`${P}/authenticate/options`, {});
    const answer = key.authenticate(options.body, { userVerified: true });
    expect((await device.post(`${P}/authenticate/verify`, { response: answer })).status).toBe(200);
    const replay = svc.client();
    await replay.post(`${P}/authenticate/options`, {});
    expectError(await replay.post(`${P}/authenticate/verify`, { response: answer }), 401, "unauthenticated");
    expectError(await passkeySignIn(svc.client(), softAuthenticator(rp(svc))), 401, "unauthenticated");
    expectError(await svc.client().post(`${P}/authenticate/verify`, { response: answer }), 401, "unauthenticated");
  });

  test("a cloned authenticator (sign counter going back) is refused", async ({ svc }) => {
    const { key } = await userWithPasskey(svc);
    expect((await passkeySignIn(svc.client(), key, { userVerified: true })).status).toBe(200);
    expect((await passkeySignIn(svc.client(), key, { userVerified: true })).status).toBe(200);
    key.signCount = 0;
    expectError(await passkeySignIn(svc.client(), key, { userVerified: true }), 401, "unauthenticated");
  });
});

describe("managing passkeys", () => {
  test("a passkey is deleted by its owner only; a deleted passkey signs nobody in", async ({ svc }) => {
    const { user, key } = await userWithPasskey(svc);
    const other = await svc.signedIn();
    const id = (await user.get(`${P}/list`)).body.items[0].id as string;
    expectError(await other.post(`${P}/delete`, { id }), 404, "not_found");
    expect((await user.post(`${P}/delete`, { id })).status).toBe(200);
    expect((await user.get(`${P}/list`)).body.items).toEqual([]);
    expectError(await passkeySignIn(svc.client(), key, { userVerified: true }), 401, "unauthenticated");
  });

  test("a passkey is renamed by its owner only, with a name of 1 to 80 characters", async ({ svc }) => {
    const { user } = await userWithPasskey(svc);
    const other = await svc.signedIn();
    const id = (await user.get(`${P}/list`)).body.items[0].id as string;
    const res = await user.post(`${P}/update`, { id, name: "  Work laptop  " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, name: "Work laptop" });
    expectError(await other.post(`${P}/update`, { id, name: "Mine now" }), 404, "not_found");
    for (const name of ["", "   ", "x".repeat(81)]) expect((await user.post(`${P}/update`, { id, name })).status).toBe(400);
    expect((await user.get(`${P}/list`)).body.items[0].name).toBe("Work laptop");
    expect((await svc.client().post(`${P}/update`, { id, name: "Anonymous" })).status).toBe(401);
  });
});

describe("re-authenticating with a passkey", () => {
  async function passwordlessWithKey(svc: TestService) {
    const c = await svc.signedIn();
    const key = softAuthenticator(rp(svc));
    expect((await register(c, key)).status).toBe(200);
    await svc.database.db.delete(authAccounts).where(and(eq(authAccounts.userId, c.userId), eq(authAccounts.providerId, "credential")));
    // Signed in long ago: a fresh sign-in no longer stands in for re-authentication.
    await svc.database.db
      .update(authSessions)
      .set({ createdAt: new Date(Date.now() - REAUTH_WINDOW_MS - 1000) })
      .where(eq(authSessions.userId, c.userId));
    return { c, key };
  }

  test("a passkey that verified the person on this session opens the recovery kit, for an account with no password", async ({ svc }) => {
    const { c, key } = await passwordlessWithKey(svc);
    expectError(await c.get("/api/v1/me/recovery-kit"), 403, "reauth_required");
    const res = await passkeySignIn(c, key, { userVerified: true });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await c.get("/api/v1/me/recovery-kit")).status).toBe(200);
  });

  test("a passkey without user verification does not, nor does another person's passkey", async ({ svc }) => {
    const { c, key } = await passwordlessWithKey(svc);
    expectError(await passkeySignIn(c, key, { userVerified: false }), 403, "forbidden");
    expectError(await c.get("/api/v1/me/recovery-kit"), 403, "reauth_required");
    const { key: otherKey } = await passwordlessWithKey(svc);
    // Another person's key signs this browser in as them, a new session: never this one's re-authentication.
    const stranger = svc.client();
    for (const [name, value] of c.cookies) stranger.cookies.set(name, value);
    expect((await passkeySignIn(stranger, otherKey, { userVerified: true })).status).toBe(200);
    expectError(await c.get("/api/v1/me/recovery-kit"), 403, "reauth_required");
  });
});
