/**
 * The in-process session cache (server/auth/session-cache.ts): remembered sessions save the two
 * lookups per request, but a sign-out or revocation through the service is seen at once, and a
 * change made behind the service's back within SVC_SESSION_CACHE_MS.
 */
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { authSessions } from "../../../server/db/schema/index.js";
import { changesSessions } from "../../../server/auth/session-cache.js";
import { type HttpClient, type TestService } from "../../support/app.js";
import { signInWithPassword } from "../../support/auth.js";

test.override("serviceEnv", { SVC_SESSION_CACHE_MS: "60000" });

test.beforeAll(async () => {
  // Long enough that only an explicit forget can explain a refusal within a test.
});

/** A second client sending exactly the same cookies, which survive the first one's sign-out. */
function sameCookies(svc: TestService, c: HttpClient): HttpClient {
  const copy = svc.client({ address: c.address });
  for (const [k, v] of c.cookies) copy.cookies.set(k, v);
  return copy;
}

describe("session cache", () => {
  test("a request answered from memory makes no session lookup", async ({ svc }) => {
    const c = await svc.signedIn();
    expect((await c.get("/api/v1/me")).status).toBe(200);
    const id = (await c.get("/api/v1/auth/get-session")).body.session.id as string;
    // Delete the row behind the service's back: the remembered session still answers...
    await svc.database.db.delete(authSessions).where(eq(authSessions.id, id));
    expect((await c.get("/api/v1/me")).status).toBe(200);
    // ...until it is forgotten (another process would see this after SVC_SESSION_CACHE_MS).
    svc.services.sessions.clear();
    expect((await c.get("/api/v1/me")).status).toBe(401);
  });

  test("signing out through the service refuses the old cookie on the very next request", async ({ svc }) => {
    const c = await svc.signedIn();
    const stolen = sameCookies(svc, c);
    expect((await stolen.get("/api/v1/me")).status).toBe(200);
    expect((await c.post("/api/v1/auth/sign-out", {})).status).toBe(200);
    expect((await stolen.get("/api/v1/me")).status).toBe(401);
  });

  test("signing another device out refuses it at once", async ({ svc }) => {
    const laptop = await svc.signedIn();
    const { c: phone } = await signInWithPassword(svc, laptop.email);
    expect((await phone.get("/api/v1/me")).status).toBe(200);
    const phoneId = (await phone.get("/api/v1/auth/get-session")).body.session.id as string;
    expect((await laptop.delete(`/api/v1/me/sessions/${phoneId}`)).status).toBe(200);
    expect((await phone.get("/api/v1/me")).status).toBe(401);
    expect((await laptop.get("/api/v1/me")).status).toBe(200);
  });

  test("expiry is checked on every remembered answer", async ({ svc }) => {
    const c = await svc.signedIn();
    expect((await c.get("/api/v1/me")).status).toBe(200);
    const id = (await c.get("/api/v1/auth/get-session")).body.session.id as string;
    await svc.database.db
      .update(authSessions)
      .set({ expiresAt: new Date(Date.now() + 300) })
      .where(eq(authSessions.id, id));
    svc.services.sessions.clear();
    expect((await c.get("/api/v1/me")).status).toBe(200);
    await new Promise((r) => setTimeout(r, 400));
    expect((await c.get("/api/v1/me")).status).toBe(401);
  });
});

describe("which requests make the cache forget", () => {
  test.each([
    ["GET", "/api/v1/me", false],
    ["POST", "/api/v1/sync/push", false],
    ["PATCH", "/api/v1/things/0198a1b2-0000-7000-8000-000000000000", false],
    ["POST", "/api/v1/locations/0198a1b2-0000-7000-8000-000000000000/things", false],
    ["POST", "/mcp", false],
    ["POST", "/api/v1/auth/sign-out", true],
    ["POST", "/api/v1/auth/two-factor/verify-totp", true],
    ["DELETE", "/api/v1/me/sessions/x", true],
    ["POST", "/api/v1/locations/x/managed-accounts/y/reset", true],
    ["DELETE", "/api/v1/locations/x/members/y", true],
    ["POST", "/api/v1/some-route-added-later", true],
  ])("%s %s -> %s", (method, path, expected) => {
    expect(changesSessions({ method, path })).toBe(expected);
  });
});
