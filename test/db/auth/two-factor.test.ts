/**
 * TOTP with backup codes and the session two-factor state (spec "Second factors" 1-3, "States and
 * transitions: Session two-factor state"), through the real HTTP server: a pending session reaches
 * nothing but the routes that finish or abandon sign-in, a proven one sees two-factor locations.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { authSessions, locations, memberships, users } from "../../../server/db/schema/index.js";
import { routes as appRoutes } from "../../../server/http/route.js";
import { FINISH_OR_ABANDON_SIGN_IN } from "../../../server/http/mfa-gate.js";
import { type TestService } from "../../support/app.js";
import { enableTotp, expectError, keysDeep, PASSWORD, signInWithPassword } from "../../support/auth.js";
import { freshTotpCode, totpCode, wrongCode } from "../../support/totp.js";

const ANY_UUID = "0190a0b0-c0d0-7e0f-8a1b-2c3d4e5f6a7b";

/** A user with TOTP on; returns the proven first device, the URI and the backup codes. */
async function userWithTotp(svc: TestService) {
  const first = await svc.signedIn("Tess Totp");
  const { totpURI, backupCodes } = await enableTotp(first);
  return { first, email: first.email, userId: first.userId, totpURI, backupCodes };
}

async function personalLocationId(svc: TestService, userId: string): Promise<string> {
  const [row] = await svc.database.db
    .select({ id: locations.id })
    .from(memberships)
    .innerJoin(locations, eq(locations.id, memberships.locationId))
    .where(and(eq(memberships.userId, userId), eq(locations.isPersonal, true)));
  return row!.id;
}

describe("turning TOTP on", () => {
  test("enable needs the password and answers a TOTP URI and ten backup codes, never a token", async ({ svc }) => {
    const c = await svc.signedIn();
    expect((await c.post("/api/v1/auth/two-factor/enable", { password: "wrong password!" })).status).toBe(400);
    const res = await c.post("/api/v1/auth/two-factor/enable", { password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.totpURI).toMatch(/^otpauth:\/\/totp\//);
    expect(res.body.backupCodes).toHaveLength(10);
    expect(keysDeep(res.body)).not.toContain("token");
    // Not on until the first code is proven: the session is still a full one.
    expect((await c.get("/api/v1/me")).status).toBe(200);
    const [u] = await svc.database.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, c.userId));
    expect(u!.on).toBe(false);
  });

  test("the first code turns it on and leaves the session that proved it usable", async ({ svc }) => {
    const { first, userId } = await userWithTotp(svc);
    const [u] = await svc.database.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, userId));
    expect(u!.on).toBe(true);
    const me = await first.get("/api/v1/me");
    expect(me.status).toBe(200);
    expect(me.body.user.twoFactorEnabled).toBe(true);
  });

  test("other devices signed in before two-factor was turned on become pending at once", async ({ svc }) => {
    const first = await svc.signedIn();
    const { c: other } = await signInWithPassword(svc, first.email);
    expect((await other.get("/api/v1/me")).status).toBe(200);
    await enableTotp(first);
    expectError(await other.get("/api/v1/me"), 403, "mfa_required");
    expect((await first.get("/api/v1/me")).status).toBe(200);
  });
});

describe("session two-factor state: pending", () => {
  test("a password sign-in of a two-factor user answers twoFactorRedirect, and the session is pending", async ({ svc }) => {
    const { email, userId } = await userWithTotp(svc);
    const { c, res } = await signInWithPassword(svc, email);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ twoFactorRedirect: true, twoFactorMethods: expect.arrayContaining(["totp"]) });
    expect(keysDeep(res.body)).not.toContain("token");
    expectError(await c.get("/api/v1/me"), 403, "mfa_required");
    // Still pending after the refusal (row 1: pending -> pending).
    expectError(await c.get("/api/v1/locations"), 403, "mfa_required");
    const session = await c.get("/api/v1/auth/get-session");
    expect(session.status).toBe(200);
    expect(session.body.user.id).toBe(userId);
    expect(session.body.session.mfaProvenAt ?? null).toBeNull();
  });

  test("a pending session reaches nothing but the routes that finish or abandon sign-in", async ({ svc }) => {
    const { email } = await userWithTotp(svc);
    const { c } = await signInWithPassword(svc, email);
    const checked = new Set<string>();
    const library = Object.values(svc.services.auth.api as Record<string, { path?: string; options?: { method?: string | string[] } }>)
      .filter((e) => typeof e.path === "string" && e.path.startsWith("/"))
      .map((e) => {
        const m = e.options?.method;
        const method = (Array.isArray(m) ? m[0] : m) ?? "GET";
        return { method: method === "*" ? "GET" : method, path: `/api/v1/auth${e.path}` };
      });
    const ours = appRoutes.map((r) => ({ method: r.method.toUpperCase(), path: r.path }));
    for (const { method, path } of [...ours, ...library]) {
      const concrete = path.replace(/:[A-Za-z]+/g, ANY_UUID);
      const key = `${method} ${concrete}`;
      if (checked.has(key) || FINISH_OR_ABANDON_SIGN_IN.has(key)) continue;
      checked.add(key);
      const res = await c.request(method, concrete, method === "GET" ? undefined : {});
      expect({ key, status: res.status, code: res.body?.error?.code }).toEqual({ key, status: 403, code: "mfa_required" });
    }
    expect(checked.size).toBeGreaterThan(40);
    // The session survived all of it and can still finish signing in.
    expect((await c.get("/api/v1/auth/get-session")).status).toBe(200);
  });

  test("a wrong code keeps the session pending; the two-factor plugin's email codes are not a factor", async ({ svc }) => {
    const { email, totpURI } = await userWithTotp(svc);
    const { c } = await signInWithPassword(svc, email);
    expect((await c.post("/api/v1/auth/two-factor/verify-totp", { code: wrongCode(totpURI) })).status).toBe(401);
    expectError(await c.get("/api/v1/me"), 403, "mfa_required");
    for (const path of ["/api/v1/auth/two-factor/send-otp", "/api/v1/auth/two-factor/verify-otp"]) {
      const res = await svc.client().post(path, { code: "123456" });
      expect(res.status).toBe(404);
    }
  });

  test("signing out abandons a pending sign-in", async ({ svc }) => {
    const { email } = await userWithTotp(svc);
    const { c } = await signInWithPassword(svc, email);
    expect((await c.post("/api/v1/auth/sign-out", {})).status).toBe(200);
    expectError(await c.get("/api/v1/me"), 401, "unauthenticated");
  });

  test("trusting the device does not let the next password sign-in skip the second factor", async ({ svc }) => {
    const { email, totpURI } = await userWithTotp(svc);
    const { c } = await signInWithPassword(svc, email);
    expect((await c.post("/api/v1/auth/two-factor/verify-totp", { code: await freshTotpCode(totpURI), trustDevice: true })).status).toBe(200);
    const again = await c.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD });
    expect(again.body.twoFactorRedirect).toBe(true);
    expectError(await c.get("/api/v1/me"), 403, "mfa_required");
  });

  test("fails closed: a session row without a recorded proof is pending, whatever its age", async ({ svc }) => {
    const { first } = await userWithTotp(svc);
    expect((await first.get("/api/v1/me")).status).toBe(200);
    const me = await first.get("/api/v1/auth/get-session");
    await svc.database.db.update(authSessions).set({ mfaProvenAt: null }).where(eq(authSessions.id, me.body.session.id));
    // Changed behind the service's back: its session cache would notice within SVC_SESSION_CACHE_MS.
    svc.services.sessions.clear();
    expectError(await first.get("/api/v1/me"), 403, "mfa_required");
  });

  test("the proof cannot be written by the client", async ({ svc }) => {
    const c = await svc.signedIn();
    const now = new Date().toISOString();
    expect((await c.post("/api/v1/auth/update-session", { mfaProvenAt: now })).status).toBe(404);
    await c.post("/api/v1/auth/update-user", { mfaProvenAt: now, twoFactorEnabled: false });
    const rows = await svc.database.db.select({ at: authSessions.mfaProvenAt }).from(authSessions).where(eq(authSessions.userId, c.userId));
    expect(rows.map((r) => r.at)).toEqual([null]);
    await enableTotp(c);
    const { c: pending } = await signInWithPassword(svc, c.email);
    expectError(await pending.post("/api/v1/auth/update-user", { twoFactorEnabled: false }), 403, "mfa_required");
    const [u] = await svc.database.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, c.userId));
    expect(u!.on).toBe(true);
  });
});

describe("session two-factor state: pending -> proven", () => {
  test("an authenticator code proves the factor, and locations that require two-factor become visible", async ({ svc }) => {
    const { first, email, userId, totpURI } = await userWithTotp(svc);
    const locationId = await personalLocationId(svc, userId);
    await svc.database.db.update(locations).set({ requiresTwoFactor: true }).where(eq(locations.id, locationId));
    const { c } = await signInWithPassword(svc, email);
    const proof = await c.post("/api/v1/auth/two-factor/verify-totp", { code: await freshTotpCode(totpURI) });
    expect(proof.status).toBe(200);
    expect(keysDeep(proof.body)).not.toContain("token");
    const me = await c.get("/api/v1/me");
    expect(me.status).toBe(200);
    expect(me.body.locations.map((l: { id: string }) => l.id)).toContain(locationId);
    expect((await c.get(`/api/v1/locations/${locationId}`)).status).toBe(200);
    // The first device proved its factor when turning two-factor on: it sees it too.
    expect((await first.get("/api/v1/me")).body.locations.map((l: { id: string }) => l.id)).toContain(locationId);
  });

  test("a session that never proved a factor does not see a location that requires two-factor", async ({ svc }) => {
    const owner = await svc.signedIn("Owner Without 2FA");
    const locationId = await personalLocationId(svc, owner.userId);
    await svc.database.db.update(locations).set({ requiresTwoFactor: true }).where(eq(locations.id, locationId));
    const me = await owner.get("/api/v1/me");
    expect(me.status).toBe(200);
    expect(me.body.locations.map((l: { id: string }) => l.id)).not.toContain(locationId);
    expectError(await owner.get(`/api/v1/locations/${locationId}`), 404, "not_found");
  });

  test("a backup code proves the factor once; the same code is refused the second time", async ({ svc }) => {
    const { email, backupCodes } = await userWithTotp(svc);
    const code = backupCodes[0]!;
    const { c } = await signInWithPassword(svc, email);
    expect((await c.post("/api/v1/auth/two-factor/verify-backup-code", { code })).status).toBe(200);
    expect((await c.get("/api/v1/me")).status).toBe(200);
    const { c: again } = await signInWithPassword(svc, email);
    expect((await again.post("/api/v1/auth/two-factor/verify-backup-code", { code })).status).toBe(401);
    expectError(await again.get("/api/v1/me"), 403, "mfa_required");
    expect((await again.post("/api/v1/auth/two-factor/verify-backup-code", { code: backupCodes[1]! })).status).toBe(200);
    expect((await again.get("/api/v1/me")).status).toBe(200);
  });

  test("a code proves only the session that gave it", async ({ svc }) => {
    const { email, totpURI } = await userWithTotp(svc);
    const { c: a } = await signInWithPassword(svc, email);
    const { c: b } = await signInWithPassword(svc, email);
    expect((await a.post("/api/v1/auth/two-factor/verify-totp", { code: await freshTotpCode(totpURI) })).status).toBe(200);
    expect((await a.get("/api/v1/me")).status).toBe(200);
    expectError(await b.get("/api/v1/me"), 403, "mfa_required");
  });

  test("turning two-factor off needs a proven session and the password; afterwards sign-in is one step", async ({ svc }) => {
    const { first, email } = await userWithTotp(svc);
    expect((await first.post("/api/v1/auth/two-factor/disable", { password: "not the password" })).status).toBe(400);
    expect((await first.post("/api/v1/auth/two-factor/disable", { password: PASSWORD })).status).toBe(200);
    const { c, res } = await signInWithPassword(svc, email);
    expect(res.body.twoFactorRedirect).toBeUndefined();
    expect((await c.get("/api/v1/me")).status).toBe(200);
  });
});

describe("an authenticator code works once", () => {
  test("the code that proved one sign-in is refused on another device within its window, and the session stays pending", async ({ svc }) => {
    const { email, totpURI } = await userWithTotp(svc);
    const { c: a } = await signInWithPassword(svc, email);
    const code = await freshTotpCode(totpURI);
    expect((await a.post("/api/v1/auth/two-factor/verify-totp", { code })).status).toBe(200);
    const { c: b } = await signInWithPassword(svc, email);
    const replay = await b.post("/api/v1/auth/two-factor/verify-totp", { code });
    expectError(replay, 401, "unauthenticated");
    expect(replay.body.error.details).toEqual({ reason: "CODE_ALREADY_USED" });
    expectError(await b.get("/api/v1/me"), 403, "mfa_required");
    // The next code of the app works.
    expect((await b.post("/api/v1/auth/two-factor/verify-totp", { code: await freshTotpCode(totpURI) })).status).toBe(200);
    expect((await b.get("/api/v1/me")).status).toBe(200);
  });

  test("the code that turned two-factor on cannot then prove a sign-in", async ({ svc }) => {
    const first = await svc.signedIn("Tina Turn-On");
    const enabled = await first.post("/api/v1/auth/two-factor/enable", { password: PASSWORD });
    const totpURI = enabled.body.totpURI as string;
    const code = await freshTotpCode(totpURI);
    expect((await first.post("/api/v1/auth/two-factor/verify-totp", { code })).status).toBe(200);
    const { c } = await signInWithPassword(svc, first.email);
    expectError(await c.post("/api/v1/auth/two-factor/verify-totp", { code }), 401, "unauthenticated");
    expectError(await c.get("/api/v1/me"), 403, "mfa_required");
  });

  test("a code older than the last one used is refused, though it is still inside the window", async ({ svc }) => {
    const { email, totpURI } = await userWithTotp(svc);
    const newer = await freshTotpCode(totpURI);
    const { c: a } = await signInWithPassword(svc, email);
    expect((await a.post("/api/v1/auth/two-factor/verify-totp", { code: newer })).status).toBe(200);
    const { c: b } = await signInWithPassword(svc, email);
    expectError(await b.post("/api/v1/auth/two-factor/verify-totp", { code: totpCode(totpURI, { step: -1 }) }), 401, "unauthenticated");
  });

  test("one code sent twice at once proves exactly one session", async ({ svc }) => {
    const { email, totpURI } = await userWithTotp(svc);
    const { c: a } = await signInWithPassword(svc, email);
    const { c: b } = await signInWithPassword(svc, email);
    const code = await freshTotpCode(totpURI);
    const answers = await Promise.all([a, b].map((c) => c.post("/api/v1/auth/two-factor/verify-totp", { code })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 401]);
  });
});
