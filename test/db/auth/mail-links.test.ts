/**
 * Password reset and magic link (spec "Ways to sign in", Limits: magic link validity), end to end
 * with a real SMTP server in the test process; and the mail fallback without SMTP (DESIGN.md
 * "Runtime modes": files under SVC_DATA_DIR/mail and a log line).
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { eq, like } from "drizzle-orm";
import { pino } from "pino";
import { describe, expect } from "vitest";
import { sharedDbTest as test } from "../../support/fixtures.js";
import { loadConfig } from "../../../server/config.js";
import type { Database } from "../../../server/db/client.js";
import { authVerifications, users } from "../../../server/db/schema/index.js";
import { createMailer } from "../../../server/mail/mailer.js";
import { type TestService } from "../../support/app.js";
import { enableTotp, expectError, keysDeep, PASSWORD, signInWithPassword } from "../../support/auth.js";
import { startSmtp, tokenFromLink, type TestSmtp } from "../../support/smtp.js";
import { freshTotpCode } from "../../support/totp.js";

let database: Database;
let smtp: TestSmtp;
let svc: TestService;

test.beforeAll(async ({ database: db, serviceOn }) => {
  database = db;
  smtp = await startSmtp();
  svc = await serviceOn({ SVC_SMTP_URL: smtp.url });
});
test.afterAll(async () => {
  await smtp?.close();
});

const NEW_PASSWORD = "a brand new passphrase";

async function requestReset(email: string) {
  return svc.client().post("/api/v1/auth/request-password-reset", { email });
}

describe("password reset", () => {
  test("the mail carries the token in the URL fragment of our page, never in a query or API path", async () => {
    const user = await svc.signedIn();
    const res = await requestReset(user.email);
    expect(res.status).toBe(200);
    const mail = await smtp.waitFor(user.email);
    expect(mail.text).toContain(`${svc.config.publicUrl.origin}/reset#token=`);
    expect(mail.text).not.toMatch(/[?&]token=|\/api\/v1\/auth\/reset-password/);
    expect(tokenFromLink(mail, "reset").length).toBeGreaterThan(16);
  });

  test("posting the token sets the new password and revokes every session; the token works once", async () => {
    const user = await svc.signedIn();
    const { c: phone } = await signInWithPassword(svc, user.email);
    await requestReset(user.email);
    const token = tokenFromLink(await smtp.waitFor(user.email), "reset");
    // A GET never redeems and does not even look the token up.
    expect((await svc.client().get(`/api/v1/auth/reset-password/${token}?callbackURL=/`)).status).toBe(404);
    const reset = await svc.client().post("/api/v1/auth/reset-password", { token, newPassword: NEW_PASSWORD });
    expect(reset.status).toBe(200);
    expect(keysDeep(reset.body)).not.toContain("token");
    expectError(await user.get("/api/v1/me"), 401, "unauthenticated");
    expectError(await phone.get("/api/v1/me"), 401, "unauthenticated");
    expect((await signInWithPassword(svc, user.email, PASSWORD)).res.status).toBe(401);
    expect((await signInWithPassword(svc, user.email, NEW_PASSWORD)).res.status).toBe(200);
    expectError(await svc.client().post("/api/v1/auth/reset-password", { token, newPassword: "yet another passphrase" }), 400, "validation_failed");
    const [row] = await database.db.select({ verified: users.emailVerified }).from(users).where(eq(users.email, user.email));
    expect(row!.verified).toBe(true);
  });

  test("an unknown address gets the same answer and no mail", async () => {
    const user = await svc.signedIn();
    const known = await requestReset(user.email);
    const unknown = await requestReset("nobody-at-all@example.test");
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await smtp.waitFor(user.email);
    expect(await smtp.anyFor("nobody-at-all@example.test", 300)).toBe(false);
  });
});

describe("magic link", () => {
  const ask = (email: string) => svc.client().post("/api/v1/auth/sign-in/magic-link", { email });

  test("a link mailed as <public URL>/magic#token= signs in when its token is posted", async () => {
    const user = await svc.signedIn();
    expect((await ask(user.email)).body).toEqual({ status: true });
    const mail = await smtp.waitFor(user.email);
    expect(mail.text).toContain(`${svc.config.publicUrl.origin}/magic#token=`);
    const device = svc.client();
    const res = await device.post("/api/v1/auth/magic-link/verify", { token: tokenFromLink(mail, "magic") });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.userId);
    expect(keysDeep(res.body)).not.toContain("token");
    expect(res.headers.getSetCookie().some((c) => /session_token=/.test(c))).toBe(true);
    expect((await device.get("/api/v1/me")).body.user.id).toBe(user.userId);
  });

  test("a GET never redeems: the library's verify is switched off and the token still works after", async () => {
    const user = await svc.signedIn();
    await ask(user.email);
    const token = tokenFromLink(await smtp.waitFor(user.email), "magic");
    const get = await svc.client().get(`/api/v1/auth/magic-link/verify?token=${encodeURIComponent(token)}`);
    expect(get.status).toBe(404);
    expect(get.headers.getSetCookie()).toEqual([]);
    expect((await svc.client().post("/api/v1/auth/magic-link/verify", { token })).status).toBe(200);
  });

  test("the first link for a never-proven address drops the password and sessions made before it", async () => {
    // Someone may have signed up with another person's address; the mailbox owner inherits nothing.
    const user = await svc.signedIn();
    await ask(user.email);
    const token = tokenFromLink(await smtp.waitFor(user.email), "magic");
    expect((await svc.client().post("/api/v1/auth/magic-link/verify", { token })).status).toBe(200);
    expectError(await user.get("/api/v1/me"), 401, "unauthenticated");
    expect((await signInWithPassword(svc, user.email, PASSWORD)).res.status).toBe(401);
    const [row] = await database.db.select({ verified: users.emailVerified }).from(users).where(eq(users.email, user.email));
    expect(row!.verified).toBe(true);
  });

  test("a token works once", async () => {
    const user = await svc.signedIn();
    await ask(user.email);
    const token = tokenFromLink(await smtp.waitFor(user.email), "magic");
    expect((await svc.client().post("/api/v1/auth/magic-link/verify", { token })).status).toBe(200);
    const again = await svc.client().post("/api/v1/auth/magic-link/verify", { token });
    expectError(again, 400, "validation_failed");
    expect(again.headers.getSetCookie()).toEqual([]);
  });

  test("a link is valid 15 minutes", async () => {
    const user = await svc.signedIn();
    const before = Date.now();
    await ask(user.email);
    const token = tokenFromLink(await smtp.waitFor(user.email), "magic");
    const pending = await database.db.select().from(authVerifications).where(like(authVerifications.identifier, "magic-link:%"));
    const mine = pending.filter((v) => v.value.includes(user.email));
    expect(mine).toHaveLength(1);
    const ttl = mine[0]!.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThan(14.9 * 60_000);
    expect(ttl).toBeLessThan(15.1 * 60_000);
    // The stored identifier is a hash, not the mailed token.
    expect(mine[0]!.identifier).not.toContain(token);
    await database.db
      .update(authVerifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authVerifications.id, mine[0]!.id));
    expectError(await svc.client().post("/api/v1/auth/magic-link/verify", { token }), 400, "validation_failed");
  });

  test("an unknown address gets the same answer, no mail and no account", async () => {
    const user = await svc.signedIn();
    const known = await ask(user.email);
    const unknown = await ask("stranger@example.test");
    expect({ status: unknown.status, body: unknown.body }).toEqual({ status: known.status, body: known.body });
    await smtp.waitFor(user.email);
    expect(await smtp.anyFor("stranger@example.test", 300)).toBe(false);
    expect(await database.db.select().from(users).where(eq(users.email, "stranger@example.test"))).toEqual([]);
  });

  test("for a two-factor user the magic link makes a pending session that a code then proves", async () => {
    const user = await svc.signedIn();
    const { totpURI } = await enableTotp(user);
    await ask(user.email);
    const device = svc.client();
    const res = await device.post("/api/v1/auth/magic-link/verify", { token: tokenFromLink(await smtp.waitFor(user.email), "magic") });
    expect(res.status).toBe(200);
    expect(res.body.twoFactorRedirect).toBe(true);
    expectError(await device.get("/api/v1/me"), 403, "mfa_required");
    expect((await device.post("/api/v1/auth/two-factor/verify-totp", { code: await freshTotpCode(totpURI) })).status).toBe(200);
    expect((await device.get("/api/v1/me")).status).toBe(200);
  });
});

describe("without an SMTP server", () => {
  test("a mail is written under SVC_DATA_DIR/mail and logged without its body", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "svc-mail-"));
    const lines: string[] = [];
    const logger = pino(new Writable({ write: (chunk: Buffer, _enc, cb) => (lines.push(chunk.toString()), cb()) }));
    const config = loadConfig({ SVC_DATA_DIR: dataDir, PORT: "0" }, { secret: "x".repeat(40) });
    await createMailer(config, logger).send({ kind: "magic-link", to: "someone@example.test", subject: "Hi", text: "http://x/magic#token=SECRET123" });
    const files = readdirSync(path.join(dataDir, "mail"));
    expect(files).toHaveLength(1);
    expect(readFileSync(path.join(dataDir, "mail", files[0]!), "utf8")).toContain("SECRET123");
    expect(lines.join("")).toContain("magic-link");
    expect(lines.join("")).not.toContain("SECRET123");
  });

  test("a reset requested through the server lands in the mail folder", async ({ serviceOn }) => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "svc-mail-"));
    const local = await serviceOn({ SVC_DATA_DIR: dataDir });
    try {
      const user = await local.signedIn();
      expect((await local.client().post("/api/v1/auth/request-password-reset", { email: user.email })).status).toBe(200);
      const dir = path.join(dataDir, "mail");
      const mails = () => (readdirSync(dataDir).includes("mail") ? readdirSync(dir).filter((f) => f.endsWith(".eml")) : []);
      for (let i = 0; i < 250 && !mails().length; i++) await new Promise((r) => setTimeout(r, 20));
      const [file] = mails();
      expect(readFileSync(path.join(dir, file!), "utf8")).toContain("/reset#token=");
    } finally {
      await local.close();
    }
  });
});
