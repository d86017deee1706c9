/**
 * OIDC and social sign-in (spec "Ways to sign in") against a local OpenID provider stand-in:
 * offered only when start-up discovery worked, keyed by `sub`, explicit linking only, never
 * provisions an account, social uses prompt=select_account, the provider's tokens are dropped.
 */
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { sharedDbTest as test } from "../../support/fixtures.js";
import type { Database } from "../../../server/db/client.js";
import { authAccounts, users } from "../../../server/db/schema/index.js";
import { type HttpClient, type TestService } from "../../support/app.js";
import { enableTotp, expectError } from "../../support/auth.js";
import { startOidcProvider, type TestOidcProvider } from "../../support/oidc-provider.js";

let database: Database;
let idp: TestOidcProvider;
let social: TestOidcProvider;
let svc: TestService;

test.beforeAll(async ({ database: db, serviceOn }) => {
  database = db;
  idp = await startOidcProvider();
  social = await startOidcProvider({ clientId: "social-client", clientSecret: "social-secret" });
  svc = await serviceOn({
    SVC_OIDC_ISSUER: idp.issuer,
    SVC_OIDC_CLIENT_ID: idp.clientId,
    SVC_OIDC_CLIENT_SECRET: idp.clientSecret,
    SVC_SOCIAL_CLIENT_ID: social.clientId,
    SVC_SOCIAL_CLIENT_SECRET: social.clientSecret,
    SVC_SOCIAL_ISSUER: social.issuer,
  });
});
// The stand-in providers outlive the services (closed by the fixture after the last test) by a moment: harmless.
test.afterAll(async () => {
  await idp?.close();
  await social?.close();
});

let n = 0;
const sub = () => `subject-${++n}-${Date.now()}`;

/** The browser's round trip: start at our server, pass the provider, come back to our callback. */
async function roundTrip(c: HttpClient, start: { path: string; body: Record<string, unknown> }) {
  const started = await c.post(start.path, start.body);
  expect(started.status).toBe(200);
  const atProvider = await fetch(started.body.url as string, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const back = new URL(atProvider.headers.get("location")!);
  expect(back.origin).toBe(svc.config.publicUrl.origin);
  return c.get(back.pathname + back.search);
}

const signIn = (c: HttpClient, provider = "oidc") =>
  roundTrip(c, { path: "/api/v1/auth/sign-in/social", body: { provider, callbackURL: "/", errorCallbackURL: "/signin" } });
const link = (c: HttpClient, provider = "oidc") => roundTrip(c, { path: "/api/v1/auth/link-social", body: { provider, callbackURL: "/settings" } });

function errorOf(res: { status: number; headers: Headers }): string | null {
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!, svc.url).searchParams.get("error");
}

describe("availability", () => {
  test("a provider whose discovery fails at start-up is not offered", async ({ serviceOn }) => {
    const down = await startOidcProvider();
    const issuer = down.issuer;
    await down.close();
    const offline = await serviceOn({ SVC_OIDC_ISSUER: issuer, SVC_OIDC_CLIENT_ID: "x" });
    try {
      expect(offline.config.signInProviders).toEqual([]);
      const res = await offline.client().post("/api/v1/auth/sign-in/social", { provider: "oidc", callbackURL: "/" });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    } finally {
      await offline.close();
    }
  });

  test("both configured providers are offered here", () => {
    expect(svc.config.signInProviders.map((p) => p.id).sort()).toEqual(["oidc", "social"]);
  });
});

describe("never provisions, no enumeration", () => {
  test("an identity linked to no account gets one answer, whether or not its email has an account", async () => {
    const existing = await svc.signedIn();
    idp.signInAs({ sub: sub(), email: "unknown-person@example.test", name: "Unknown" });
    const unknown = await signIn(svc.client());
    idp.signInAs({ sub: sub(), email: existing.email, name: "Same Email" });
    const sameEmail = svc.client();
    const known = await signIn(sameEmail);
    expect(errorOf(unknown)).toBe("no_linked_account");
    expect(errorOf(known)).toBe("no_linked_account");
    expect(unknown.headers.get("location")).toBe(known.headers.get("location"));
    expect(await database.db.select().from(users).where(eq(users.email, "unknown-person@example.test"))).toEqual([]);
    expectError(await sameEmail.get("/api/v1/me"), 401, "unauthenticated");
  });
});

describe("explicit linking and sign-in by sub", () => {
  test("a signed-in person links an identity; it then signs them in, keyed by sub, tokens dropped", async () => {
    const person = await svc.signedIn();
    const subject = sub();
    // The provider's address differs from the account's: linking is explicit, so that is fine.
    idp.signInAs({ sub: subject, email: `elsewhere-${n}@idp.example`, name: "Person" });
    const linked = await link(person);
    expect(linked.status).toBe(302);
    expect(errorOf(linked)).toBeNull();
    const [account] = await database.db.select().from(authAccounts).where(eq(authAccounts.accountId, subject));
    expect(account).toMatchObject({ userId: person.userId, providerId: "oidc", accessToken: null, refreshToken: null, idToken: null });

    const device = svc.client();
    const res = await signIn(device);
    expect(errorOf(res)).toBeNull();
    expect(new URL(res.headers.get("location")!, svc.url).pathname).toBe("/");
    expect((await device.get("/api/v1/me")).body.user.id).toBe(person.userId);
    const [after] = await database.db.select().from(authAccounts).where(eq(authAccounts.accountId, subject));
    expect({ access: after!.accessToken, refresh: after!.refreshToken, id: after!.idToken }).toEqual({ access: null, refresh: null, id: null });
  });

  test("the same email under another sub signs nobody in: the key is sub, never the email", async () => {
    const person = await svc.signedIn();
    idp.signInAs({ sub: sub(), email: person.email });
    await link(person);
    idp.signInAs({ sub: sub(), email: person.email });
    const device = svc.client();
    expect(errorOf(await signIn(device))).toBe("no_linked_account");
    expectError(await device.get("/api/v1/me"), 401, "unauthenticated");
  });

  test("linking needs a session", async () => {
    expect((await svc.client().post("/api/v1/auth/link-social", { provider: "oidc", callbackURL: "/" })).status).toBe(401);
  });

  test("for a two-factor user an OIDC sign-in leaves the session pending", async () => {
    const person = await svc.signedIn();
    await enableTotp(person);
    idp.signInAs({ sub: sub(), email: person.email });
    await link(person);
    const device = svc.client();
    expect(errorOf(await signIn(device))).toBeNull();
    expectError(await device.get("/api/v1/me"), 403, "mfa_required");
    expect((await device.get("/api/v1/auth/get-session")).body.user.id).toBe(person.userId);
  });

  test("the authorization request uses PKCE (S256) and a nonce", async () => {
    const last = idp.authorizeRequests.at(-1)!;
    expect(last.get("code_challenge_method")).toBe("S256");
    expect(last.get("code_challenge")).toBeTruthy();
    expect(last.get("nonce")).toBeTruthy();
    expect(last.get("scope")).toContain("openid");
  });
});

describe("social sign-in", () => {
  test("asks the provider to let the person choose an account, links explicitly and drops the tokens", async () => {
    const person = await svc.signedIn();
    const subject = sub();
    social.signInAs({ sub: subject, email: person.email, name: "Social Person" });
    const device = svc.client();
    expect(errorOf(await signIn(device, "social"))).toBe("no_linked_account");
    expect(social.authorizeRequests.at(-1)!.get("prompt")).toBe("select_account");
    await link(person, "social");
    const [account] = await database.db.select().from(authAccounts).where(eq(authAccounts.accountId, subject));
    expect(account).toMatchObject({ providerId: "social", userId: person.userId, accessToken: null, refreshToken: null, idToken: null });
    expect(errorOf(await signIn(device, "social"))).toBeNull();
    expect((await device.get("/api/v1/me")).body.user.id).toBe(person.userId);
  });
});
