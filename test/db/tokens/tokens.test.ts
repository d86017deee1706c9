import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { errorBodySchema } from "../../../shared/errors.js";
import { tokenCreatedSchema, tokenListSchema } from "../../../shared/tokens.js";
import { personalTokens } from "../../../server/db/schema/index.js";
import type { HttpResponse, TestService } from "../../support/app.js";
import type { Client } from "../../support/members.js";
import { apiTest as test } from "../../support/fixtures.js";

const personalLocation = async (c: Client): Promise<string> => {
  const me = await c.get("/api/v1/me");
  const own = (me.body.locations as { id: string; role: string }[]).find((l) => l.role === "owner");
  return own!.id;
};

const makeToken = async (c: Client, body: Record<string, unknown>) => {
  const res = await c.post("/api/v1/tokens", { name: "Home Assistant", scope: "read", ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return tokenCreatedSchema.parse(res.body);
};

/** A client with no cookies that sends only the token, as a script would. */
const bearer = (svc: TestService, secret: string) => {
  const c = svc.client();
  const auth = { authorization: `Bearer ${secret}` };
  return {
    get: (path: string) => c.request("GET", path, undefined, auth),
    post: (path: string, body?: unknown) => c.request("POST", path, body, auth),
    patch: (path: string, body?: unknown) => c.request("PATCH", path, body, auth),
    delete: (path: string) => c.request("DELETE", path, undefined, auth),
  };
};

const code = (res: HttpResponse) => errorBodySchema.parse(res.body).error.code;

describe("personal tokens: creation, secrets and revocation", () => {
  test("the secret is svt_<lookup>_<secret>, shown once; the list and the database never hold it", async ({ svc, loc, as }) => {
    const created = await makeToken(as.member, { locationIds: [loc] });
    expect(created.secret).toMatch(/^svt_[0-9A-Za-z]{12}_[0-9A-Za-z]{43}$/);
    expect(created.prefix).toBe(`${created.secret.slice(0, 17)}…`);
    const list = await as.member.get("/api/v1/tokens");
    const item = tokenListSchema.parse(list.body).items.find((t) => t.id === created.id);
    expect(item).toMatchObject({ name: "Home Assistant", scope: "read", locationIds: [loc], revokedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(created.secret.slice(18));
    const [row] = await svc.database.db.select().from(personalTokens).where(eq(personalTokens.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(18));
    expect(row!.hmac).toMatch(/^[\w-]{43}$/);
  });

  test("a token works until its creator revokes it from a session; a token cannot revoke or create tokens", async ({ svc, loc, as }) => {
    const created = await makeToken(as.member, { locationIds: [loc] });
    const t = bearer(svc, created.secret);
    expect((await t.get(`/api/v1/locations/${loc}/things`)).status).toBe(200);
    expect((await t.delete(`/api/v1/tokens/${created.id}`)).status).toBe(403);
    expect((await t.post("/api/v1/tokens", { name: "x", scope: "read", locationIds: [loc] })).status).toBe(403);
    expect((await as.viewer.delete(`/api/v1/tokens/${created.id}`)).status).toBe(404);
    const revoked = await as.member.delete(`/api/v1/tokens/${created.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).not.toBeNull();
    const refused = await t.get(`/api/v1/locations/${loc}/things`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toMatch(/^Bearer /);
  });

  test("an unknown, malformed, tampered or expired token is refused with the same 401", async ({ svc, loc, as }) => {
    const created = await makeToken(as.member, { locationIds: [loc], expiresAt: new Date(Date.now() + 3_600_000).toISOString() });
    const tampered = created.secret.slice(0, -1) + (created.secret.endsWith("A") ? "B" : "A");
    for (const secret of [tampered, "svt_short", "not-a-token", `svt_${"a".repeat(12)}_${"b".repeat(43)}`]) {
      const res = await bearer(svc, secret).get(`/api/v1/locations/${loc}/things`);
      expect(res.status, secret).toBe(401);
      expect(code(res)).toBe("unauthenticated");
    }
    await svc.database.db
      .update(personalTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(personalTokens.id, created.id));
    expect((await bearer(svc, created.secret).get(`/api/v1/locations/${loc}/things`)).status).toBe(401);
  });

  test("an expiry in the past and a location the creator is not in are refused at creation", async ({ loc, as }) => {
    const past = await as.member.post("/api/v1/tokens", { name: "x", scope: "read", locationIds: [loc], expiresAt: "2000-01-01T00:00:00Z" });
    expect(past.status).toBe(400);
    const foreign = await as.outsider.post("/api/v1/tokens", { name: "x", scope: "read", locationIds: [loc] });
    expect(foreign.status).toBe(404);
    const viewerWrite = await as.viewer.post("/api/v1/tokens", { name: "x", scope: "write", locationIds: [loc] });
    expect(viewerWrite.status).toBe(403);
    expect((await as.viewer.post("/api/v1/tokens", { name: "x", scope: "read", locationIds: [loc] })).status).toBe(201);
  });

  test("a bearer request is the token's alone: a good cookie does not rescue a bad token", async ({ loc, as }) => {
    const res = await as.member.request("GET", `/api/v1/locations/${loc}/things`, undefined, { authorization: "Bearer svt_nope" });
    expect(res.status).toBe(401);
  });
});

describe("personal tokens: scope and locations", () => {
  test("a token reaches only the intersection of its locations and its creator's memberships", async ({ svc, loc, as }) => {
    const own = await personalLocation(as.member);
    const outsiders = await personalLocation(as.outsider);
    const created = await makeToken(as.member, { locationIds: [own] });
    const t = bearer(svc, created.secret);
    expect((await t.get(`/api/v1/locations/${own}/things`)).status).toBe(200);
    // A location the creator belongs to but the token does not list, and one the creator is not in.
    expect((await t.get(`/api/v1/locations/${loc}/things`)).status).toBe(404);
    expect((await t.get(`/api/v1/locations/${outsiders}/things`)).status).toBe(404);
    const listed = await t.get("/api/v1/locations");
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(loc);
  });

  test("a read token writes nothing; a write token writes, audited as the token", async ({ svc, loc, as }) => {
    const read = bearer(svc, (await makeToken(as.member, { locationIds: [loc] })).secret);
    const refused = await read.post(`/api/v1/locations/${loc}/things`, { name: "Ladder" });
    expect(refused.status).toBe(403);
    const writeToken = await makeToken(as.member, { scope: "write", locationIds: [loc] });
    const write = bearer(svc, writeToken.secret);
    const made = await write.post(`/api/v1/locations/${loc}/things`, { name: "Ladder" });
    expect(made.status).toBe(201);
    const history = await as.member.get(`/api/v1/things/${made.body.id}/history`);
    expect(history.body.items[0].actor.type).toBe("token");
    // The history route accepts a bearer header too (spec "Route authentication modes").
    expect((await read.get(`/api/v1/things/${made.body.id}/history`)).status).toBe(200);
  });

  test("a token undoes only its own changes, not its creator's other changes", async ({ svc, loc, as }) => {
    const t = bearer(svc, (await makeToken(as.member, { scope: "write", locationIds: [loc] })).secret);
    const thing = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Lamp" });
    const byToken = await t.patch(`/api/v1/things/${thing.body.id}`, { name: "Lamp (token)", rowVersion: 1 });
    const other2 = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Stool" });
    const bySession = await as.member.patch(`/api/v1/things/${other2.body.id}`, { name: "Stool (session)", rowVersion: 1 });
    expect([byToken.status, bySession.status]).toEqual([200, 200]);
    const other = bearer(svc, (await makeToken(as.member, { scope: "write", locationIds: [loc] })).secret);
    const eventOf = async (thingId: string) => (await as.member.get(`/api/v1/things/${thingId}/history`)).body.items[0].id as string;
    const sessionEvent = await eventOf(bySession.body.id);
    const tokenEvent = await eventOf(byToken.body.id);
    expect((await t.post(`/api/v1/history/${sessionEvent}/undo`)).status).toBe(403);
    expect((await other.post(`/api/v1/history/${tokenEvent}/undo`)).status).toBe(403);
    const undone = await t.post(`/api/v1/history/${tokenEvent}/undo`);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
  });
});

describe("personal tokens: the allow-list", () => {
  test("sign-in, /me, tokens, members, invites and managed accounts are never open to a token", async ({ svc, loc, as }) => {
    const t = bearer(svc, (await makeToken(as.owner, { scope: "write", locationIds: [loc] })).secret);
    const closed: [string, string][] = [
      ["GET", "/api/v1/me"],
      ["GET", "/api/v1/me/sessions"],
      ["DELETE", "/api/v1/me/sessions"],
      ["GET", "/api/v1/tokens"],
      ["GET", `/api/v1/locations/${loc}/members`],
      ["DELETE", `/api/v1/locations/${loc}/members/${as.viewer.userId}`],
      ["POST", `/api/v1/locations/${loc}/invites`],
      ["POST", `/api/v1/locations/${loc}/managed-accounts`],
      ["PATCH", `/api/v1/locations/${loc}`],
      ["POST", "/api/v1/locations"],
      ["GET", "/api/v1/auth/get-session"],
      ["POST", "/api/v1/auth/sign-in/email"],
      ["POST", "/api/v1/sync/push"],
      ["GET", "/api/v1/openapi.json"],
      ["GET", "/api/v1/nothing-here"],
    ];
    for (const [method, path] of closed) {
      const res = await (method === "GET" ? t.get(path) : method === "DELETE" ? t.delete(path) : method === "PATCH" ? t.patch(path, {}) : t.post(path, {}));
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    // The viewer is still a member: the refused DELETE above never reached the route.
    const members = await as.owner.get(`/api/v1/locations/${loc}/members`);
    expect(JSON.stringify(members.body)).toContain(as.viewer.userId);
  });

  test("every allow-listed route exists, and the OpenAPI document shows the bearer scheme on exactly those", async ({ as }) => {
    const { TOKEN_ROUTES } = await import("../../../server/modules/tokens/allow-list.js");
    const doc = (await as.member.get("/api/v1/openapi.json")).body as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    const withBearer = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => JSON.stringify(op.security ?? []).includes("bearer"))
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
    );
    expect(withBearer.sort()).toEqual([...TOKEN_ROUTES].sort());
  });
});

describe("OAuth over plain http", () => {
  test("without an https public URL there is no authorization server and no /mcp", async ({ svc, as }) => {
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource", "/oauth/authorize"]) {
      expect((await as.member.get(path)).status, path).toBe(404);
    }
    expect((await as.member.post("/mcp", {})).status).toBe(404);
    expect((await svc.client().request("POST", "/oauth/token", {})).status).toBe(404);
  });
});
