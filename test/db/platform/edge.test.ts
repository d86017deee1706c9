/**
 * The edge of the server, through the real HTTP server: the same-site check (spec "Same-site
 * check" 1-3), body limits (spec Limits: ANONYMOUS_BODY_LIMIT), the error body, the client address
 * (spec "Sessions and cookies" 4) and the session cookie (rules 1-3).
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { sharedDbTest as test } from "../../support/fixtures.js";
import { errorBodySchema } from "../../../shared/errors.js";
import type { Database } from "../../../server/db/client.js";
import { authSessions, users } from "../../../server/db/schema/index.js";
import { ANONYMOUS_BODY_LIMIT } from "../../../server/http/edge.js";
import { type TestService } from "../../support/app.js";

const FOREIGN = "https://evil.example";
const PASSWORD = "correct horse battery";
const FORGED_COOKIE = "svc.session_token=forged.value";

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** A request with exactly the headers given (fetch adds some of its own; node:http adds none). */
function raw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  opts: { chunked?: boolean } = {},
): Promise<RawResponse> {
  const url = new URL(path, base);
  const h: Record<string, string> = { ...headers };
  if (body !== undefined) {
    h["content-type"] ??= "application/json";
    if (!opts.chunked) h["content-length"] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: h }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    req.on("error", reject);
    if (body !== undefined && opts.chunked) {
      // Two writes force Transfer-Encoding: chunked, so no Content-Length announces the size.
      const half = Math.floor(body.length / 2);
      req.write(body.slice(0, half));
      req.write(body.slice(half));
    } else if (body !== undefined) {
      req.write(body);
    }
    req.end();
  });
}

/** Every key anywhere in a JSON value. */
function keysDeep(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysDeep);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...keysDeep(v)]);
  return [];
}

function expectError(res: { status: number; body: unknown }, status: number, code: string) {
  expect({ status: res.status, code: (res.body as any)?.error?.code }).toEqual({ status, code });
  const parsed = errorBodySchema.strict().parse(res.body);
  expect(Object.keys(parsed.error).sort()).toEqual(expect.arrayContaining(["code", "message"]));
  expect(parsed.error.message.length).toBeGreaterThan(0);
}

let database: Database;
let svc: TestService;
let n = 0;

test.beforeAll(async ({ database: db, serviceOn }) => {
  database = db;
  svc = await serviceOn();
});

const signUpBody = () => ({ email: `edge${++n}@example.test`, password: PASSWORD, name: "Edge Tester" });

async function usersNamed(email: string) {
  return database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
}

/** Signs up a fresh user, then signs in with extra headers; returns the client and the user id. */
async function signUpAndIn(s: TestService, headers: Record<string, string> = {}, address?: string) {
  const c = s.client(address ? { address } : {});
  const body = signUpBody();
  expect((await c.post("/api/v1/auth/sign-up", body)).status).toBe(200);
  const signIn = await c.request("POST", "/api/v1/auth/sign-in/email", { email: body.email, password: PASSWORD }, headers);
  expect(signIn.status).toBe(200);
  return { c, signIn, userId: signIn.body.user.id as string };
}

async function sessionIps(userId: string) {
  const rows = await database.db.select({ ip: authSessions.ipAddress }).from(authSessions).where(eq(authSessions.userId, userId));
  return rows.map((r) => r.ip);
}

describe("same-site check", () => {
  const post = (headers: Record<string, string>, body: string = JSON.stringify(signUpBody()), opts = {}) =>
    raw(svc.url, "POST", "/api/v1/auth/sign-up", { cookie: FORGED_COOKIE, ...headers }, body, opts);

  test("a cookie-bearing POST with a foreign Origin is refused with 403 forbidden and creates nothing", async () => {
    const body = signUpBody();
    const res = await post({ origin: FOREIGN }, JSON.stringify(body));
    expectError(res, 403, "forbidden");
    expect(await usersNamed(body.email)).toEqual([]);
  });

  test("the refusal comes before the body is read: an oversized body still gets 403, not 413", async () => {
    const big = JSON.stringify({ pad: "x".repeat(ANONYMOUS_BODY_LIMIT + 4096) });
    expectError(await post({ origin: FOREIGN }, big), 403, "forbidden");
    expectError(await post({ origin: FOREIGN }, big, { chunked: true }), 403, "forbidden");
  });

  test("the refusal comes before the body is parsed: invalid JSON still gets 403, not 400", async () => {
    expectError(await post({ origin: FOREIGN }, "{this is not json"), 403, "forbidden");
  });

  test("a cookie-bearing POST with neither Origin nor Sec-Fetch-Site is refused", async () => {
    expectError(await post({}), 403, "forbidden");
  });

  test("a cookie-bearing POST without Origin passes when Sec-Fetch-Site is same-origin, and only then", async () => {
    expect((await post({ "sec-fetch-site": "same-origin" })).status).toBe(200);
    expectError(await post({ "sec-fetch-site": "same-site" }), 403, "forbidden");
    expectError(await post({ "sec-fetch-site": "cross-site" }), 403, "forbidden");
  });

  test('Origin "null" counts as no Origin: refused alone, accepted with Sec-Fetch-Site same-origin', async () => {
    expectError(await post({ origin: "null" }), 403, "forbidden");
    expect((await post({ origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(200);
  });

  test("a foreign Origin is refused even when Sec-Fetch-Site claims same-origin", async () => {
    expectError(await post({ origin: FOREIGN, "sec-fetch-site": "same-origin" }), 403, "forbidden");
  });

  test("a cookie-bearing POST from our own origin passes", async () => {
    expect((await post({ origin: svc.config.publicUrl.origin })).status).toBe(200);
  });

  test("GET requests are not checked: a foreign Origin still reads the session", async () => {
    const { c, userId } = await signUpAndIn(svc);
    const res = await raw(svc.url, "GET", "/api/v1/auth/get-session", { cookie: cookieHeader(c.cookies), origin: FOREIGN });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(userId);
  });

  test("the authentication library's routes are behind the check too: a foreign sign-out leaves the session alive", async () => {
    const { c, userId } = await signUpAndIn(svc);
    const out = await raw(svc.url, "POST", "/api/v1/auth/sign-out", { cookie: cookieHeader(c.cookies), origin: FOREIGN }, "{}");
    expectError(out, 403, "forbidden");
    const session = await c.get("/api/v1/auth/get-session");
    expect(session.body?.user?.id).toBe(userId);
  });

  test("a request with a bearer token skips the check: the token alone decides, and its body is read as usual", async () => {
    const { c } = await signUpAndIn(svc);
    const loc = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const token = await c.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [loc] });
    const path = `/api/v1/locations/${loc}/things`;
    const headers = (secret: string) => ({ cookie: FORGED_COOKIE, origin: FOREIGN, authorization: `Bearer ${secret}` });
    expect((await raw(svc.url, "POST", path, headers(token.body.secret), JSON.stringify({ name: "Drill" }))).status).toBe(201);
    expectError(await raw(svc.url, "POST", path, headers(token.body.secret), "{this is not json"), 400, "validation_failed");
    // An unknown token is refused as unauthenticated, not as cross-site: the check was skipped.
    expectError(await post(headers("svt_lookup_secret")), 401, "unauthenticated");
  });
});

function cookieHeader(cookies: Map<string, string>): string {
  return [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

describe("body limits and errors", () => {
  test("an anonymous body over 16 KiB is refused with 413 payload_too_large", async () => {
    const big = JSON.stringify({ ...signUpBody(), pad: "x".repeat(ANONYMOUS_BODY_LIMIT) });
    const announced = await raw(svc.url, "POST", "/api/v1/auth/sign-up", { origin: svc.config.publicUrl.origin }, big);
    expectError(announced, 413, "payload_too_large");
    const chunked = await raw(svc.url, "POST", "/api/v1/auth/sign-up", { origin: svc.config.publicUrl.origin }, big, { chunked: true });
    expectError(chunked, 413, "payload_too_large");
  });

  test("an anonymous body just under 16 KiB is read (and here fails validation instead)", async () => {
    const base = JSON.stringify({ ...signUpBody(), pad: "" });
    const body = JSON.stringify({ ...signUpBody(), pad: "x".repeat(ANONYMOUS_BODY_LIMIT - base.length - 16) });
    expect(Buffer.byteLength(body)).toBeLessThan(ANONYMOUS_BODY_LIMIT);
    expectError(await raw(svc.url, "POST", "/api/v1/auth/sign-up", {}, body), 400, "validation_failed");
  });

  test("an unknown route answers 404 not_found as JSON", async () => {
    for (const method of ["GET", "POST"]) {
      const res = await raw(svc.url, method, "/api/v1/no-such-route", { origin: svc.config.publicUrl.origin }, method === "POST" ? "{}" : undefined);
      expectError(res, 404, "not_found");
      expect(res.headers["content-type"]).toMatch(/^application\/json/);
    }
  });

  test("GET /health answers 200", async () => {
    const res = await raw(svc.url, "GET", "/health", {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });
});

describe("client address", () => {
  test("without trusted proxies, X-Forwarded-For and a forged client-address header are ignored", async () => {
    const { userId } = await signUpAndIn(svc, { "x-forwarded-for": "203.0.113.7", "x-svc-client-ip": "198.51.100.9" }, "127.0.0.1");
    const ips = await sessionIps(userId);
    expect(ips).toHaveLength(1);
    expect(["127.0.0.1", "::ffff:127.0.0.1"]).toContain(ips[0]);
  });

  test.for(["127.0.0.1", "loopback"])("with SVC_TRUSTED_PROXIES=%s the forwarded address is used", async (proxies, { serviceOn }) => {
    const proxied = await serviceOn({ SVC_TRUSTED_PROXIES: proxies });
    try {
      const { userId } = await signUpAndIn(proxied, { "x-forwarded-for": "203.0.113.7", "x-svc-client-ip": "198.51.100.9" }, "127.0.0.1");
      expect(await sessionIps(userId)).toEqual(["203.0.113.7"]);
      // Only trusted hops are walked: a client-supplied first entry is not believed.
      const chained = await signUpAndIn(proxied, { "x-forwarded-for": "192.0.2.1, 203.0.113.8" }, "127.0.0.1");
      expect(await sessionIps(chained.userId)).toEqual(["203.0.113.8"]);
    } finally {
      await proxied.close();
    }
  });
});

describe("session cookie", () => {
  const sessionCookie = (setCookie: string[]) => {
    const found = setCookie.filter((c) => /session_token=/.test(c));
    expect(found).toHaveLength(1);
    return found[0]!;
  };

  test("over http the cookie is HttpOnly, not Secure, unprefixed, and lasts 12 hours", async () => {
    const { signIn } = await signUpAndIn(svc);
    const cookie = sessionCookie(signIn.headers.getSetCookie());
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).not.toMatch(/;\s*Secure/i);
    expect(cookie).not.toMatch(/^__Secure-/);
    expect(cookie).toMatch(/;\s*Max-Age=43200\b/i);
  });

  test("with an https public URL the cookie is HttpOnly, Secure, __Secure- prefixed and lasts 30 days", async ({ serviceOn }) => {
    const https = await serviceOn({ SVC_PUBLIC_URL: "https://inventory.example" });
    try {
      expect(https.config.publicUrl.origin).toBe("https://inventory.example");
      const { c, signIn, userId } = await signUpAndIn(https);
      const cookie = sessionCookie(signIn.headers.getSetCookie());
      expect(cookie).toMatch(/^__Secure-/);
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/;\s*HttpOnly/i);
      expect(cookie).toMatch(/;\s*Max-Age=2592000\b/i);
      const session = await c.get("/api/v1/auth/get-session");
      expect(session.body?.user?.id).toBe(userId);
    } finally {
      await https.close();
    }
  });

  test("no token field reaches page scripts in the sign-in and get-session bodies", async () => {
    const { c, signIn } = await signUpAndIn(svc);
    expect(keysDeep(signIn.body)).not.toContain("token");
    const session = await c.get("/api/v1/auth/get-session");
    expect(session.status).toBe(200);
    expect(session.body.session).toBeDefined();
    expect(keysDeep(session.body)).not.toContain("token");
  });
});
