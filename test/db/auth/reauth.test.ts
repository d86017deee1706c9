/**
 * Re-authentication (spec "Second factors" 4, Errors: 403 reauth_required): changing the sign-in
 * email and downloading the recovery kit need the password again or, for an account without a
 * password, a sign-in within the last few minutes.
 */
import { and, eq, like } from "drizzle-orm";
import { describe, expect } from "vitest";
import { mailTest as test } from "../../support/fixtures.js";
import { REAUTH_WINDOW_MS } from "../../../server/auth/reauth.js";
import { authAccounts, authSessions, authVerifications, users } from "../../../server/db/schema/index.js";
import { type HttpClient, type TestService } from "../../support/app.js";
import { enableTotp, expectError, PASSWORD, signInWithPassword } from "../../support/auth.js";
import { tokenFromLink, type TestSmtp } from "../../support/smtp.js";

/** The token of the confirmation link mailed to `email`. */
async function confirmationToken(smtp: TestSmtp, email: string): Promise<string> {
  return tokenFromLink(await smtp.waitFor(email), "confirm-email");
}

const confirm = (svc: TestService, token: string) => svc.client().post("/api/v1/auth/email-change/confirm", { token });

async function signInAddress(svc: TestService, userId: string): Promise<string> {
  const [row] = await svc.database.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row!.email;
}

async function sessionId(c: HttpClient): Promise<string> {
  return (await c.get("/api/v1/auth/get-session")).body.session.id as string;
}

async function ageSession(svc: TestService, c: HttpClient, field: "createdAt" | "reauthenticatedAt", ms: number) {
  await svc.database.db
    .update(authSessions)
    .set({ [field]: new Date(Date.now() - ms) })
    .where(eq(authSessions.id, await sessionId(c)));
}

describe("changing the sign-in email", () => {
  test("without the password again it is 403 reauth_required, even right after signing in", async ({ svc }) => {
    const c = await svc.signedIn();
    const res = await c.post("/api/v1/me/email", { email: `new-${c.email}` });
    expectError(res, 403, "reauth_required");
    expect((await c.get("/api/v1/me")).body.user.email).toBe(c.email);
  });

  test("a wrong password is 403 reauth_required and changes nothing", async ({ svc }) => {
    const c = await svc.signedIn();
    expectError(await c.post("/api/v1/me/email", { email: `new-${c.email}`, password: "not my password" }), 403, "reauth_required");
    expect((await c.get("/api/v1/me")).body.user.email).toBe(c.email);
  });

  test("with the password it answers 202 and changes nothing until the link mailed to the new address is opened", async ({ svc, smtp }) => {
    const c = await svc.signedIn();
    const email = `moved-${c.email}`;
    const res = await c.post("/api/v1/me/email", { email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ status: "confirmation_sent", email });
    // Not yet: the old address still signs in, the new one does not.
    expect(await signInAddress(svc, c.userId)).toBe(c.email);
    expect((await signInWithPassword(svc, email)).res.status).toBe(401);
    const mail = await smtp.waitFor(email);
    expect(mail.text).toContain(`${svc.config.publicUrl.origin}/confirm-email#token=`);
    expect(mail.text).not.toMatch(/[?&]token=|\/api\/v1\//);
    const confirmed = await confirm(svc, tokenFromLink(mail, "confirm-email"));
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ email });
    expect((await signInWithPassword(svc, email)).res.status).toBe(200);
    expect((await signInWithPassword(svc, c.email)).res.status).toBe(401);
    const [row] = await svc.database.db.select({ verified: users.emailVerified }).from(users).where(eq(users.id, c.userId));
    expect(row!.verified).toBe(true);
  });

  test("the current address is told about the change, with the new address, before it happens", async ({ svc, smtp }) => {
    const c = await svc.signedIn();
    const email = `told-${c.email}`;
    expect((await c.post("/api/v1/me/email", { email, password: PASSWORD })).status).toBe(202);
    const notice = await smtp.waitFor(c.email);
    expect(notice.text).toContain(email);
    expect(notice.text).not.toContain("#token=");
  });

  test("a link works once, and only the latest one asked for works", async ({ svc, smtp }) => {
    const c = await svc.signedIn();
    expect((await c.post("/api/v1/me/email", { email: `first-${c.email}`, password: PASSWORD })).status).toBe(202);
    const first = await confirmationToken(smtp, `first-${c.email}`);
    expect((await c.post("/api/v1/me/email", { email: `second-${c.email}`, password: PASSWORD })).status).toBe(202);
    const second = await confirmationToken(smtp, `second-${c.email}`);
    expectError(await confirm(svc, first), 400, "validation_failed");
    expect(await signInAddress(svc, c.userId)).toBe(c.email);
    expect((await confirm(svc, second)).status).toBe(200);
    expectError(await confirm(svc, second), 400, "validation_failed");
    expect(await signInAddress(svc, c.userId)).toBe(`second-${c.email}`);
  });

  test("an expired link changes nothing; a made-up token is refused", async ({ svc, smtp }) => {
    const c = await svc.signedIn();
    expect((await c.post("/api/v1/me/email", { email: `late-${c.email}`, password: PASSWORD })).status).toBe(202);
    const token = await confirmationToken(smtp, `late-${c.email}`);
    await svc.database.db
      .update(authVerifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(like(authVerifications.identifier, "email-change:%"));
    expectError(await confirm(svc, token), 400, "validation_failed");
    expect(await signInAddress(svc, c.userId)).toBe(c.email);
    expectError(await confirm(svc, "A".repeat(43)), 400, "validation_failed");
    expectError(await confirm(svc, "not a token"), 400, "validation_failed");
  });

  test("only a hash of the token is stored", async ({ svc, smtp }) => {
    const c = await svc.signedIn();
    expect((await c.post("/api/v1/me/email", { email: `hashed-${c.email}`, password: PASSWORD })).status).toBe(202);
    const token = await confirmationToken(smtp, `hashed-${c.email}`);
    const stored = await svc.database.db.select({ identifier: authVerifications.identifier, value: authVerifications.value }).from(authVerifications);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  test("confirming counts as a mailed-token redemption: the 31st in an hour from one address is 429", async ({ svc }) => {
    const device = svc.client();
    for (let i = 0; i < 30; i++)
      expectError(await device.post("/api/v1/auth/email-change/confirm", { token: `guess${i}`.padEnd(43, "x") }), 400, "validation_failed");
    expectError(await device.post("/api/v1/auth/email-change/confirm", { token: "y".repeat(43) }), 429, "rate_limited");
  });

  test("a password given just before (POST /me/reauthenticate) counts for five minutes", async ({ svc }) => {
    const c = await svc.signedIn();
    const re = await c.post("/api/v1/me/reauthenticate", { password: PASSWORD });
    expect(re.status).toBe(200);
    expect(Date.parse(re.body.validUntil) - Date.now()).toBeGreaterThan(REAUTH_WINDOW_MS - 60_000);
    expect((await c.post("/api/v1/me/email", { email: `second-${c.email}` })).status).toBe(202);
    await ageSession(svc, c, "reauthenticatedAt", REAUTH_WINDOW_MS + 1000);
    expectError(await c.post("/api/v1/me/email", { email: `third-${c.email}` }), 403, "reauth_required");
  });

  test("an address another account uses is refused and stays theirs, when asked and when confirmed", async ({ svc, smtp }) => {
    const a = await svc.signedIn();
    const b = await svc.signedIn();
    expectError(await a.post("/api/v1/me/email", { email: b.email, password: PASSWORD }), 409, "conflict");
    expect((await signInWithPassword(svc, b.email)).res.status).toBe(200);
    // Free when asked, taken (by b) before the link is opened.
    const wanted = `wanted-${a.email}`;
    expect((await a.post("/api/v1/me/email", { email: wanted, password: PASSWORD })).status).toBe(202);
    const token = await confirmationToken(smtp, wanted);
    expect((await b.post("/api/v1/me/email", { email: wanted, password: PASSWORD })).status).toBe(202);
    expect((await confirm(svc, await confirmationToken(smtp, wanted))).status).toBe(200);
    expectError(await confirm(svc, token), 409, "conflict");
    expect(await signInAddress(svc, a.userId)).toBe(a.email);
  });

  test("the same address again is refused; mails for one new address are limited like other mails", async ({ svc }) => {
    const c = await svc.signedIn();
    expectError(await c.post("/api/v1/me/email", { email: c.email, password: PASSWORD }), 400, "validation_failed");
    const email = `often-${c.email}`;
    for (let i = 0; i < 5; i++) expect((await c.post("/api/v1/me/email", { email, password: PASSWORD })).status).toBe(202);
    expectError(await c.post("/api/v1/me/email", { email, password: PASSWORD }), 429, "rate_limited");
  });

  test("wrong passwords count as sign-in failures of the account", async ({ svc }) => {
    const c = await svc.signedIn();
    for (let i = 0; i < 3; i++) expectError(await c.post("/api/v1/me/reauthenticate", { password: `guess ${i}` }), 403, "reauth_required");
    expectError(await c.post("/api/v1/me/reauthenticate", { password: PASSWORD }), 429, "rate_limited");
  });
});

describe("the recovery kit", () => {
  test("needs re-authentication, then lists the unused backup codes and is not cached", async ({ svc }) => {
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
  async function passwordless(svc: TestService) {
    const c = await svc.signedIn();
    await svc.database.db.delete(authAccounts).where(and(eq(authAccounts.userId, c.userId), eq(authAccounts.providerId, "credential")));
    return c;
  }

  test("a sign-in within the last few minutes is enough", async ({ svc }) => {
    const c = await passwordless(svc);
    expect((await c.get("/api/v1/me/recovery-kit")).status).toBe(200);
    expect((await c.post("/api/v1/me/email", { email: `fresh-${c.email}` })).status).toBe(202);
  });

  test("an older sign-in is 403 reauth_required, and no password can stand in", async ({ svc }) => {
    const c = await passwordless(svc);
    await ageSession(svc, c, "createdAt", REAUTH_WINDOW_MS + 1000);
    expectError(await c.get("/api/v1/me/recovery-kit"), 403, "reauth_required");
    expectError(await c.post("/api/v1/me/email", { email: `late-${c.email}` }), 403, "reauth_required");
    expectError(await c.post("/api/v1/me/reauthenticate", { password: PASSWORD }), 403, "reauth_required");
  });
});
