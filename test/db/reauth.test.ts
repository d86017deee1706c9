/**
 * Re-authentication (spec "Second factors" 4, Errors: 403 reauth_required): changing the sign-in
 * email and downloading the recovery kit need the password again or, for an account without a
 * password, a sign-in within the last few minutes.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REAUTH_WINDOW_MS } from "../../server/auth/reauth.js";
import { authAccounts, authSessions } from "../../server/db/schema/index.js";
import { startService, type HttpClient, type TestService } from "../support/app.js";
import { enableTotp, expectError, PASSWORD, signInWithPassword } from "../support/auth.js";

let svc: TestService;

beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.close();
});

async function sessionId(c: HttpClient): Promise<string> {
  return (await c.get("/api/v1/auth/get-session")).body.session.id as string;
}

async function ageSession(c: HttpClient, field: "createdAt" | "reauthenticatedAt", ms: number) {
  await svc.database.db
    .update(authSessions)
    .set({ [field]: new Date(Date.now() - ms) })
    .where(eq(authSessions.id, await sessionId(c)));
}

describe("changing the sign-in email", () => {
  test("without the password again it is 403 reauth_required, even right after signing in", async () => {
    const c = await svc.signedIn();
    const res = await c.post("/api/v1/me/email", { email: `new-${c.email}` });
    expectError(res, 403, "reauth_required");
    expect((await c.get("/api/v1/me")).body.user.email).toBe(c.email);
  });

  test("a wrong password is 403 reauth_required and changes nothing", async () => {
    const c = await svc.signedIn();
    expectError(await c.post("/api/v1/me/email", { email: `new-${c.email}`, password: "not my password" }), 403, "reauth_required");
    expect((await c.get("/api/v1/me")).body.user.email).toBe(c.email);
  });

  test("with the password it changes the address people sign in with", async () => {
    const c = await svc.signedIn();
    const email = `moved-${c.email}`;
    const res = await c.post("/api/v1/me/email", { email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ email });
    expect((await signInWithPassword(svc, email)).res.status).toBe(200);
    expect((await signInWithPassword(svc, c.email)).res.status).toBe(401);
  });

  test("a password given just before (POST /me/reauthenticate) counts for five minutes", async () => {
    const c = await svc.signedIn();
    const re = await c.post("/api/v1/me/reauthenticate", { password: PASSWORD });
    expect(re.status).toBe(200);
    expect(Date.parse(re.body.validUntil) - Date.now()).toBeGreaterThan(REAUTH_WINDOW_MS - 60_000);
    expect((await c.post("/api/v1/me/email", { email: `second-${c.email}` })).status).toBe(200);
    await ageSession(c, "reauthenticatedAt", REAUTH_WINDOW_MS + 1000);
    expectError(await c.post("/api/v1/me/email", { email: `third-${c.email}` }), 403, "reauth_required");
  });

  test("an address another account uses is refused and stays theirs", async () => {
    const a = await svc.signedIn();
    const b = await svc.signedIn();
    expectError(await a.post("/api/v1/me/email", { email: b.email, password: PASSWORD }), 409, "conflict");
    expect((await signInWithPassword(svc, b.email)).res.status).toBe(200);
  });

  test("wrong passwords count as sign-in failures of the account", async () => {
    const c = await svc.signedIn();
    for (let i = 0; i < 3; i++) expectError(await c.post("/api/v1/me/reauthenticate", { password: `guess ${i}` }), 403, "reauth_required");
    expectError(await c.post("/api/v1/me/reauthenticate", { password: PASSWORD }), 429, "rate_limited");
  });
});

describe("the recovery kit", () => {
  test("needs re-authentication, then lists the unused backup codes and is not cached", async () => {
    const c = await svc.signedIn();
    const { backupCodes } = await enableTotp(c);
    expectError(await c.get("/api/v1/me/recovery-kit"), 403, "reauth_required");
    expect((await c.post("/api/v1/me/reauthenticate", { password: PASSWORD })).status).toBe(200);
    const kit = await c.get("/api/v1/me/recovery-kit");
    expect(kit.status).toBe(200);
    expect(kit.body).toMatchObject({ account: c.email, signInUrl: svc.config.publicUrl.origin, twoFactorEnabled: true });
    expect(kit.body.backupCodes.sort()).toEqual([...backupCodes].sort());
    expect(kit.headers.get("cache-control")).toBe("no-store");
    expect(kit.headers.get("content-disposition")).toMatch(/^attachment/);
    // A used code leaves the kit.
    const { c: other } = await signInWithPassword(svc, c.email);
    expect((await other.post("/api/v1/auth/two-factor/verify-backup-code", { code: backupCodes[0] })).status).toBe(200);
    expect((await c.get("/api/v1/me/recovery-kit")).body.backupCodes).not.toContain(backupCodes[0]);
  });
});

describe("an account without a password", () => {
  async function passwordless() {
    const c = await svc.signedIn();
    await svc.database.db.delete(authAccounts).where(and(eq(authAccounts.userId, c.userId), eq(authAccounts.providerId, "credential")));
    return c;
  }

  test("a sign-in within the last few minutes is enough", async () => {
    const c = await passwordless();
    expect((await c.get("/api/v1/me/recovery-kit")).status).toBe(200);
    expect((await c.post("/api/v1/me/email", { email: `fresh-${c.email}` })).status).toBe(200);
  });

  test("an older sign-in is 403 reauth_required, and no password can stand in", async () => {
    const c = await passwordless();
    await ageSession(c, "createdAt", REAUTH_WINDOW_MS + 1000);
    expectError(await c.get("/api/v1/me/recovery-kit"), 403, "reauth_required");
    expectError(await c.post("/api/v1/me/email", { email: `late-${c.email}` }), 403, "reauth_required");
    expectError(await c.post("/api/v1/me/reauthenticate", { password: PASSWORD }), 403, "reauth_required");
  });
});
