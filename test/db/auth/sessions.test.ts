/**
 * Signed-in devices (spec "Endpoints named in the authentication rules": GET /api/v1/me/sessions,
 * DELETE /api/v1/me/sessions/:id), signing out everywhere else (DELETE /api/v1/me/sessions) and
 * session lifetimes (spec "Sessions and cookies" 1-3).
 */
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { sharedDbTest as test } from "../../support/fixtures.js";
import type { Database } from "../../../server/db/client.js";
import { authSessions } from "../../../server/db/schema/index.js";
import { type HttpClient, type TestService } from "../../support/app.js";
import { expectError, keysDeep, signInWithPassword } from "../../support/auth.js";

let database: Database;
let svc: TestService;
let https: TestService;

test.beforeAll(async ({ database: db, serviceOn }) => {
  database = db;
  svc = await serviceOn();
  https = await serviceOn({ SVC_PUBLIC_URL: "https://inventory.example" });
});

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe("GET /api/v1/me/sessions", () => {
  test("lists each signed-in device with the current one marked, and never a token", async () => {
    const laptop = await svc.signedIn();
    const { c: phone } = await signInWithPassword(svc, laptop.email, undefined, { "user-agent": "Phone Browser/1.0" });
    const res = await laptop.get("/api/v1/me/sessions");
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(2);
    for (const item of res.body.items) {
      expect(Object.keys(item).sort()).toEqual(["createdAt", "current", "id", "ip", "lastSeenAt", "userAgent"]);
      expect([laptop.address, phone.address]).toContain(item.ip.replace(/^::ffff:/, ""));
      expect(Date.parse(item.createdAt)).not.toBeNaN();
      expect(Date.parse(item.lastSeenAt)).not.toBeNaN();
    }
    expect(keysDeep(res.body)).not.toContain("token");
    expect(res.body.items.filter((i: { current: boolean }) => i.current)).toHaveLength(1);
    const fromPhone = await phone.get("/api/v1/me/sessions");
    const phoneItem = fromPhone.body.items.find((i: { current: boolean }) => i.current);
    expect(phoneItem.userAgent).toBe("Phone Browser/1.0");
    expect(phoneItem.ip).toBe(phone.address);
    const laptopCurrent = res.body.items.find((i: { current: boolean }) => i.current);
    expect(laptopCurrent.id).not.toBe(phoneItem.id);
  });

  test("lists only the caller's own sessions and leaves expired ones out", async () => {
    const a = await svc.signedIn();
    const b = await svc.signedIn();
    const { c: old } = await signInWithPassword(svc, a.email);
    const oldId = (await old.get("/api/v1/auth/get-session")).body.session.id as string;
    await database.db
      .update(authSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authSessions.id, oldId));
    const mine = (await a.get("/api/v1/me/sessions")).body.items as { id: string }[];
    const theirs = (await b.get("/api/v1/me/sessions")).body.items as { id: string }[];
    expect(mine).toHaveLength(1);
    expect(theirs).toHaveLength(1);
    expect(mine[0]!.id).not.toBe(theirs[0]!.id);
    expect(mine.map((i) => i.id)).not.toContain(oldId);
  });

  test("needs a session", async () => {
    expectError(await svc.client().get("/api/v1/me/sessions"), 401, "unauthenticated");
  });

  test("the library's own session listing and revocation are switched off", async () => {
    const c = await svc.signedIn();
    for (const path of ["/list-sessions", "/revoke-session", "/revoke-sessions", "/revoke-other-sessions"]) {
      const res = path === "/list-sessions" ? await c.get(`/api/v1/auth${path}`) : await c.post(`/api/v1/auth${path}`, {});
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });
});

describe("DELETE /api/v1/me/sessions/:id", () => {
  test("signs another device out at once and leaves this one signed in", async () => {
    const laptop = await svc.signedIn();
    const { c: phone } = await signInWithPassword(svc, laptop.email);
    const items = (await laptop.get("/api/v1/me/sessions")).body.items as { id: string; current: boolean }[];
    const phoneId = items.find((i) => !i.current)!.id;
    const res = await laptop.delete(`/api/v1/me/sessions/${phoneId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expectError(await phone.get("/api/v1/me"), 401, "unauthenticated");
    expect((await laptop.get("/api/v1/me")).status).toBe(200);
    expect((await laptop.get("/api/v1/me/sessions")).body.items).toHaveLength(1);
  });

  test("someone else's session reads as not found and stays alive", async () => {
    const a = await svc.signedIn();
    const b = await svc.signedIn();
    const bId = (await b.get("/api/v1/me/sessions")).body.items[0].id as string;
    expectError(await a.delete(`/api/v1/me/sessions/${bId}`), 404, "not_found");
    expect((await b.get("/api/v1/me")).status).toBe(200);
  });

  test("deleting the current session signs this device out and clears its cookie", async () => {
    const c = await svc.signedIn();
    const id = (await c.get("/api/v1/me/sessions")).body.items[0].id as string;
    const res = await c.delete(`/api/v1/me/sessions/${id}`);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((h) => /session_token=;/.test(h))).toBe(true);
    expectError(await c.get("/api/v1/me"), 401, "unauthenticated");
  });

  test("an id that is not a uuid is refused with 400", async () => {
    const c = await svc.signedIn();
    expectError(await c.delete("/api/v1/me/sessions/not-a-uuid"), 400, "validation_failed");
  });
});

describe("DELETE /api/v1/me/sessions (sign out everywhere else)", () => {
  test("signs out every other device of the caller, keeps this one, and leaves other people alone", async () => {
    const laptop = await svc.signedIn();
    const { c: phone } = await signInWithPassword(svc, laptop.email);
    const { c: tablet } = await signInWithPassword(svc, laptop.email);
    const stranger = await svc.signedIn();
    const res = await laptop.delete("/api/v1/me/sessions");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, signedOut: 2 });
    expectError(await phone.get("/api/v1/me"), 401, "unauthenticated");
    expectError(await tablet.get("/api/v1/me"), 401, "unauthenticated");
    expect((await laptop.get("/api/v1/me")).status).toBe(200);
    expect((await laptop.get("/api/v1/me/sessions")).body.items).toMatchObject([{ current: true }]);
    expect((await stranger.get("/api/v1/me")).status).toBe(200);
    // Nothing else left to sign out; the cookie of this device is untouched.
    const again = await laptop.delete("/api/v1/me/sessions");
    expect(again.body).toEqual({ ok: true, signedOut: 0 });
    expect(again.headers.getSetCookie().filter((h) => /session_token=/.test(h))).toEqual([]);
  });

  test("needs a session", async () => {
    expectError(await svc.client().delete("/api/v1/me/sessions"), 401, "unauthenticated");
  });
});

describe("session lifetimes", () => {
  async function sessionRow(c: HttpClient) {
    const id = (await c.get("/api/v1/auth/get-session")).body.session.id as string;
    const [row] = await database.db.select().from(authSessions).where(eq(authSessions.id, id));
    return row!;
  }

  test("over http a session lasts 12 hours and is never renewed", async () => {
    const c = await svc.signedIn();
    const row = await sessionRow(c);
    expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - 12 * HOUR)).toBeLessThan(60_000);
    // Two days of use later (as far as the row can tell), it still ends when it would have.
    const aged = { updatedAt: new Date(Date.now() - 2 * DAY), expiresAt: new Date(Date.now() + HOUR) };
    await database.db.update(authSessions).set(aged).where(eq(authSessions.id, row.id));
    // Changed behind the service's back: its session cache would notice within SVC_SESSION_CACHE_MS.
    svc.services.sessions.clear();
    const res = await c.get("/api/v1/me");
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().filter((h) => /session_token=/.test(h))).toEqual([]);
    const after = await sessionRow(c);
    expect(after.expiresAt.getTime()).toBe(aged.expiresAt.getTime());
  });

  test("over https a session lasts 30 days and slides once a day of use", async () => {
    const c = await https.signedIn();
    const row = await sessionRow(c);
    expect(Math.abs(row.expiresAt.getTime() - row.createdAt.getTime() - 30 * DAY)).toBeLessThan(60_000);
    // Used within the day: not refreshed.
    await c.get("/api/v1/me");
    expect((await sessionRow(c)).expiresAt.getTime()).toBe(row.expiresAt.getTime());
    // A day later: refreshed to 30 days from now, with a new cookie.
    const aged = { updatedAt: new Date(Date.now() - 2 * DAY), expiresAt: new Date(Date.now() + 28 * DAY) };
    await database.db.update(authSessions).set(aged).where(eq(authSessions.id, row.id));
    // Changed behind the service's back: its session cache would notice within SVC_SESSION_CACHE_MS.
    https.services.sessions.clear();
    const res = await c.get("/api/v1/me");
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().some((h) => /^__Secure-svc\.session_token=.+Max-Age=2592000/i.test(h))).toBe(true);
    const after = await sessionRow(c);
    expect(Math.abs(after.expiresAt.getTime() - Date.now() - 30 * DAY)).toBeLessThan(60_000);
  });
});
