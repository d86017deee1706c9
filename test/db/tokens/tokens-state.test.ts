/** The personal-token state table (spec "Personal token") and the per-token rate limits (spec "Limits"). */
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { tokenCreatedSchema } from "../../../shared/tokens.js";
import { personalTokens } from "../../../server/db/schema/index.js";
import { type TestService } from "../../support/app.js";
import { locationWithRoles, type Client } from "../../support/members.js";

const ownLocation = async (c: Client): Promise<string> =>
  ((await c.get("/api/v1/me")).body.locations as { id: string; role: string }[]).find((l) => l.role === "owner")!.id;

const makeToken = async (c: Client, scope: "read" | "write", locationIds: string[]) => {
  const res = await c.post("/api/v1/tokens", { name: `${scope} token`, scope, locationIds });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return tokenCreatedSchema.parse(res.body);
};

const stored = async (svc: TestService, id: string) => (await svc.database.db.select().from(personalTokens).where(eq(personalTokens.id, id)))[0]!;

const asToken = (svc: TestService, secret: string) => {
  const c = svc.client();
  return (method: string, path: string, body?: unknown) => c.request(method, path, body, { authorization: `Bearer ${secret}` });
};

describe("the personal-token state table", () => {
  test("dropping to viewer takes the location from write tokens only; the others keep it", async ({ svc }) => {
    const { locationId: shared, as } = await locationWithRoles(svc);
    const own = await ownLocation(as.member);
    const write = await makeToken(as.member, "write", [shared, own]);
    const read = await makeToken(as.member, "read", [shared]);
    const writeOnlyShared = await makeToken(as.member, "write", [shared]);
    const res = await as.admin.patch(`/api/v1/locations/${shared}/members/${as.member.userId}`, { role: "viewer" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await stored(svc, write.id)).toMatchObject({ locationIds: [own], revokedAt: null });
    expect(await stored(svc, read.id)).toMatchObject({ locationIds: [shared], revokedAt: null });
    // It was the last location of this one: revoked, and refused from now on.
    expect((await stored(svc, writeOnlyShared.id)).revokedAt).not.toBeNull();
    expect((await asToken(svc, writeOnlyShared.secret)("GET", `/api/v1/locations/${shared}/things`)).status).toBe(401);
    expect((await asToken(svc, read.secret)("GET", `/api/v1/locations/${shared}/things`)).status).toBe(200);
    // Becoming a member again does not give the location back.
    await as.admin.patch(`/api/v1/locations/${shared}/members/${as.member.userId}`, { role: "member" });
    expect((await stored(svc, write.id)).locationIds).toEqual([own]);
  });

  test("a membership that ends takes the location from every token; the last location revokes", async ({ svc }) => {
    const { locationId: shared, as } = await locationWithRoles(svc);
    const own = await ownLocation(as.viewer);
    const both = await makeToken(as.viewer, "read", [own, shared]);
    const onlyShared = await makeToken(as.viewer, "read", [shared]);
    const leaverOwn = await ownLocation(as.member);
    const leaver = await makeToken(as.member, "write", [shared, leaverOwn]);
    // Removed by an admin, and leaving on one's own: the same transition.
    expect((await as.admin.delete(`/api/v1/locations/${shared}/members/${as.viewer.userId}`)).status).toBe(200);
    expect((await as.member.delete(`/api/v1/locations/${shared}/members/${as.member.userId}`)).status).toBe(200);
    expect(await stored(svc, both.id)).toMatchObject({ locationIds: [own], revokedAt: null });
    expect((await stored(svc, onlyShared.id)).revokedAt).not.toBeNull();
    expect(await stored(svc, leaver.id)).toMatchObject({ locationIds: [leaverOwn], revokedAt: null });
    expect((await asToken(svc, both.secret)("GET", `/api/v1/locations/${own}/things`)).status).toBe(200);
    expect((await asToken(svc, both.secret)("GET", `/api/v1/locations/${shared}/things`)).status).toBe(404);
  });

  test("a refused membership change leaves the tokens as they were", async ({ svc }) => {
    const { locationId: shared, as } = await locationWithRoles(svc);
    const token = await makeToken(as.admin, "write", [shared]);
    // A member cannot demote an admin: the command is refused, so nothing moves.
    expect((await as.member.patch(`/api/v1/locations/${shared}/members/${as.admin.userId}`, { role: "viewer" })).status).toBe(403);
    expect(await stored(svc, token.id)).toMatchObject({ locationIds: [shared], revokedAt: null });
  });
});

describe("per-token rate limits", () => {
  test("120 reads a minute, then 429 with Retry-After; writes and other tokens count apart", async ({ svc }) => {
    const c = await svc.signedIn("Reader");
    const loc = await ownLocation(c);
    const t = asToken(svc, (await makeToken(c, "write", [loc])).secret);
    const other = asToken(svc, (await makeToken(c, "read", [loc])).secret);
    for (let i = 0; i < 120; i++) expect((await t("GET", `/api/v1/locations/${loc}/things`)).status).toBe(200);
    const refused = await t("GET", `/api/v1/locations/${loc}/things`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect((await t("POST", `/api/v1/locations/${loc}/things`, { name: "Still writable" })).status).toBe(201);
    expect((await other("GET", `/api/v1/locations/${loc}/things`)).status).toBe(200);
  });

  test("30 writes a minute, then 429 with Retry-After; reads still go through", async ({ svc }) => {
    const c = await svc.signedIn("Writer");
    const loc = await ownLocation(c);
    const t = asToken(svc, (await makeToken(c, "write", [loc])).secret);
    for (let i = 0; i < 30; i++) expect((await t("POST", `/api/v1/locations/${loc}/things`, { name: `Jar ${i}` })).status).toBe(201);
    const refused = await t("POST", `/api/v1/locations/${loc}/things`, { name: "One too many" });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await t("GET", `/api/v1/locations/${loc}/things`)).status).toBe(200);
  });
});
