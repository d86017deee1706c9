/**
 * Sign-in limits (spec "Limits"): 5 sign-in attempts a minute per IP; 20 failures an hour per
 * account and IP with growing delays, never a lockout; 30 mailed-token redemptions an hour per IP.
 * Every refusal is 429 with Retry-After. Addresses come from the socket (spec "Sessions and
 * cookies" 4). Where a test needs "a minute later", it clears that one counter in the limiter.
 */
import { request as httpRequest } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { failureKey, ipKey, SIGN_IN_FAILURES } from "../../../server/auth/limits.js";
import { MCP_REQUESTS_PER_IP, TOKEN_REQUESTS_PER_CLIENT, TOKEN_REQUESTS_PER_IP } from "../../../server/oauth/limits.js";
import { rows, sql } from "../../../server/db/client.js";
import { startService, type HttpClient, type HttpResponse, type TestService } from "../../support/app.js";
import { enableTotp, expectError, PASSWORD } from "../../support/auth.js";
import { wrongCode } from "../../support/totp.js";

function expect429(res: HttpResponse, max: number) {
  expectError(res, 429, "rate_limited");
  const after = Number(res.headers.get("retry-after"));
  expect(after).toBeGreaterThanOrEqual(1);
  expect(after).toBeLessThanOrEqual(max);
  return after;
}

const signIn = (c: HttpClient, email: string, password: string) => c.post("/api/v1/auth/sign-in/email", { email, password });

/** "A minute later" for this address's per-IP sign-in counter. */
const nextMinute = (svc: TestService, c: HttpClient) => svc.services.limits.attempts.delete(ipKey(c.address));

describe("sign-in attempts: 5 a minute per IP", () => {
  test("the 6th sign-in in a minute from one address is 429 with Retry-After, even with the right password", async ({ svc }) => {
    const user = await svc.signedIn();
    const device = svc.client();
    // Five tries at five addresses (so no per-account delay gets in the way first).
    for (let i = 0; i < 5; i++) expect((await signIn(device, `nobody${i}@example.test`, "wrong password")).status).toBe(401);
    const sixth = await signIn(device, user.email, PASSWORD);
    expect429(sixth, 60);
    expect(sixth.headers.getSetCookie()).toEqual([]);
    // Another address is not affected.
    expect((await signIn(svc.client(), user.email, PASSWORD)).status).toBe(200);
  });

  test("every way of starting a sign-in counts, and a forged X-Forwarded-For does not dodge it", async ({ svc }) => {
    const device = svc.client();
    const spoof = (i: number) => ({ "x-forwarded-for": `198.51.100.${i}` });
    await device.request("POST", "/api/v1/auth/sign-in/email", { email: "a@example.test", password: "x".repeat(9) }, spoof(1));
    await device.request("POST", "/api/v1/auth/sign-in/username", { username: "nobody", password: "x".repeat(9) }, spoof(2));
    await device.request("POST", "/api/v1/auth/request-password-reset", { email: "a@example.test" }, spoof(3));
    await device.request("POST", "/api/v1/auth/sign-in/email", { email: "b@example.test", password: "x".repeat(9) }, spoof(4));
    await device.request("POST", "/api/v1/auth/passkey/authenticate/options", {}, spoof(5));
    expect429(await device.request("POST", "/api/v1/auth/sign-in/username", { username: "x", password: "y".repeat(9) }, spoof(6)), 60);
  });
});

describe("sign-in failures: growing delays per account and IP, never a lockout", () => {
  test("after three free failures each failure doubles the wait; the right password waits too, then works", async ({ svc }) => {
    const user = await svc.signedIn();
    const device = svc.client();
    for (let i = 0; i < 3; i++) expect((await signIn(device, user.email, "wrong password")).status).toBe(401);
    expect(expect429(await signIn(device, user.email, PASSWORD), 1)).toBe(1);
    await nextMinute(svc, device);
    await sleep(1100);
    expect((await signIn(device, user.email, "wrong password")).status).toBe(401);
    expect(expect429(await signIn(device, user.email, PASSWORD), 2)).toBe(2);
    await sleep(2100);
    await nextMinute(svc, device);
    expect((await signIn(device, user.email, PASSWORD)).status).toBe(200);
    // Success forgets the failures: the next mistake is free again.
    expect((await signIn(device, user.email, "wrong password")).status).toBe(401);
    expect((await signIn(device, user.email, "wrong password")).status).toBe(401);
  });

  test("the delay is per account: the same address may still sign in to another account", async ({ svc }) => {
    const a = await svc.signedIn();
    const b = await svc.signedIn();
    const device = svc.client();
    for (let i = 0; i < 3; i++) await signIn(device, a.email, "wrong password");
    expect429(await signIn(device, a.email, PASSWORD), 1);
    expect((await signIn(device, b.email, PASSWORD)).status).toBe(200);
  });

  test("after 20 failures in an hour that address waits out the hour; the person signs in from elsewhere", async ({ svc }) => {
    const user = await svc.signedIn();
    const attacker = svc.client();
    const key = failureKey(`email:${user.email}`, attacker.address);
    for (let i = 0; i < SIGN_IN_FAILURES.points; i++) {
      // Skip the waits: clear this address's minute counter and the current delay ("time passes").
      await nextMinute(svc, attacker);
      await svc.services.limits.delays.delete(key);
      expect((await signIn(attacker, user.email, `guess ${i}`)).status).toBe(401);
    }
    await nextMinute(svc, attacker);
    await svc.services.limits.delays.delete(key);
    const after = expect429(await signIn(attacker, user.email, PASSWORD), 3600);
    expect(after).toBeGreaterThan(60);
    // Never a lockout: the account itself still opens for its owner elsewhere.
    expect((await signIn(svc.client(), user.email, PASSWORD)).status).toBe(200);
  });

  test("wrong authenticator codes count as failures too", async ({ svc }) => {
    const user = await svc.signedIn();
    const { totpURI } = await enableTotp(user);
    const device = svc.client();
    expect((await signIn(device, user.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await device.post("/api/v1/auth/two-factor/verify-totp", { code: wrongCode(totpURI) })).status).toBe(401);
    }
    expect429(await device.post("/api/v1/auth/two-factor/verify-totp", { code: wrongCode(totpURI) }), 1);
    expectError(await device.get("/api/v1/me"), 403, "mfa_required");
  });

  test("a stolen session cannot guess the password through the routes that check it", async ({ svc }) => {
    const user = await svc.signedIn();
    for (let i = 0; i < 3; i++) {
      const res = await user.post("/api/v1/auth/change-password", { currentPassword: `guess ${i}`, newPassword: "a new long password" });
      expectError(res, 400, "validation_failed");
    }
    expectError(await user.post("/api/v1/auth/two-factor/enable", { password: PASSWORD }), 429, "rate_limited");
  });

  test("a wrong password is answered in our error shape", async ({ svc }) => {
    const res = await signIn(svc.client(), "nobody-here@example.test", "wrong password");
    expectError(res, 401, "unauthenticated");
  });

  test.runIf(process.env.TEST_DATABASE_URL)("with PostgreSQL the counters live in the database, keyed without the address", async ({ svc }) => {
    const user = await svc.signedIn();
    const device = svc.client();
    await signIn(device, user.email, "wrong password");
    const stored = await rows<{ key: string; points: number }>(svc.database.db, sql`SELECT key, points FROM rate_limits`);
    expect(stored.some((r) => r.key === `fail:${failureKey(`email:${user.email}`, device.address)}` && r.points === 1)).toBe(true);
    expect(stored.some((r) => r.key.includes(user.email))).toBe(false);
  });
});

describe("mails asked for one address: 5 an hour, from any address (our choice)", () => {
  test("the 6th reset or magic link for one address in an hour is 429, whoever asks", async ({ svc }) => {
    const user = await svc.signedIn();
    const ask = (path: string) => svc.client().post(`/api/v1/auth/${path}`, { email: user.email });
    for (const path of ["request-password-reset", "sign-in/magic-link", "request-password-reset", "sign-in/magic-link", "request-password-reset"]) {
      expect((await ask(path)).status).toBe(200);
    }
    expect429(await ask("sign-in/magic-link"), 3600);
    expect((await svc.client().post("/api/v1/auth/request-password-reset", { email: "someone-else@example.test" })).status).toBe(200);
  });
});

describe("mailed-token redemptions: 30 an hour per IP", () => {
  test("the 31st redemption from one address is 429 with Retry-After", async ({ svc }) => {
    const device = svc.client();
    for (let i = 0; i < 30; i++) {
      const res = await device.post("/api/v1/auth/reset-password", { token: `not-a-token-${i}`, newPassword: "a new long password" });
      expect(res.status).toBe(400);
    }
    expect429(await device.post("/api/v1/auth/reset-password", { token: "another", newPassword: "a new long password" }), 3600);
    expect((await svc.client().post("/api/v1/auth/reset-password", { token: "x", newPassword: "a new long password" })).status).toBe(400);
  });
});

describe("OAuth token endpoint and /mcp (our choice): per address, and per client at the token endpoint", () => {
  // The authorization server and /mcp exist only with an https public URL (spec "OAuth for MCP clients").
  let oauth: TestService;
  test.beforeAll(async () => {
    oauth = await startService({ SVC_PUBLIC_URL: "https://inventory.test" });
  });
  test.afterAll(async () => {
    await oauth?.close();
  });

  /** POST /oauth/token with a form body, from the given loopback address. */
  function tokenRequest(address: string, form: Record<string, string>): Promise<HttpResponse> {
    const body = new URLSearchParams(form).toString();
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        `${oauth.url}/oauth/token`,
        {
          method: "POST",
          localAddress: address,
          headers: { "content-type": "application/x-www-form-urlencoded", "content-length": String(Buffer.byteLength(body)) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v);
            resolve({ status: res.statusCode ?? 0, headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  const grant = (clientId: string) => ({
    grant_type: "authorization_code",
    code: "not-a-code",
    redirect_uri: "https://client.example/callback",
    client_id: clientId,
    code_verifier: "v".repeat(43),
    resource: "https://inventory.test/mcp",
  });

  function expectOAuth429(res: HttpResponse, max: number) {
    expect({ status: res.status, error: res.body?.error }).toEqual({ status: 429, error: "rate_limited" });
    const after = Number(res.headers.get("retry-after"));
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(max);
  }

  test(`the token endpoint takes ${TOKEN_REQUESTS_PER_IP.points} requests a minute from one address, then 429 with Retry-After`, async () => {
    const device = oauth.client();
    for (let i = 0; i < TOKEN_REQUESTS_PER_IP.points; i++) {
      const res = await tokenRequest(device.address, grant(`https://client${i}.example/meta.json`));
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 400, error: "invalid_grant" });
    }
    expectOAuth429(await tokenRequest(device.address, grant("https://another.example/meta.json")), 60);
    expect((await tokenRequest(oauth.client().address, grant("https://another.example/meta.json"))).status).toBe(400);
  });

  test(`one client gets ${TOKEN_REQUESTS_PER_CLIENT.points} token requests a minute, from whatever addresses`, async () => {
    const clientId = "https://busy-client.example/meta.json";
    const perAddress = 20;
    for (let sent = 0; sent < TOKEN_REQUESTS_PER_CLIENT.points; sent += perAddress) {
      const address = oauth.client().address;
      for (let i = 0; i < perAddress; i++) expect((await tokenRequest(address, grant(clientId))).status).toBe(400);
    }
    const fresh = oauth.client().address;
    expectOAuth429(await tokenRequest(fresh, grant(clientId)), 60);
    expect((await tokenRequest(fresh, grant("https://quiet-client.example/meta.json"))).status).toBe(400);
  });

  test(`/mcp takes ${MCP_REQUESTS_PER_IP.points} requests a minute from one address, then 429 rate_limited with Retry-After, before any token check`, async () => {
    const device = oauth.client();
    const call = () =>
      device.request(
        "POST",
        "/mcp",
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { authorization: "Bearer not-a-token", accept: "application/json, text/event-stream" },
      );
    for (let i = 0; i < MCP_REQUESTS_PER_IP.points; i++) expect((await call()).status).toBe(401);
    expect429(await call(), 60);
    expect((await oauth.client().request("POST", "/mcp", {}, { authorization: "Bearer not-a-token" })).status).toBe(401);
  });
});
