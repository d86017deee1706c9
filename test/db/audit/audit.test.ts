/**
 * Audit entries (issue #32): each security-relevant settings change leaves exactly one entry, in the
 * change's own transaction (a refused or failed change leaves none), naming things by name and
 * never holding a secret; a person reads their own account's entries, a location's owner and
 * admins its entries, and nobody else either; both lists page newest first.
 */
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { auditListSchema, type AuditAction, type AuditEntry } from "../../../shared/audit.js";
import { shareLinkCreatedSchema } from "../../../shared/share-links.js";
import { tokenCreatedSchema } from "../../../shared/tokens.js";
import { recordAudit } from "../../../server/commands/audit.js";
import { asSystem } from "../../../server/db/actor.js";
import { auditEntries, memberships, oauthGrants } from "../../../server/db/schema/index.js";
import { grantAndCode, redeemCode } from "../../../server/oauth/grants.js";
import { expectError } from "../../support/auth.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { TestService } from "../../support/app.js";
import type { Client } from "../../support/members.js";

type Row = typeof auditEntries.$inferSelect;

/** The entries written since `before` (a count of all rows), oldest first. */
async function since(svc: TestService, before: number): Promise<Row[]> {
  const all = await svc.database.db.select().from(auditEntries).orderBy(auditEntries.at, auditEntries.id);
  return all.slice(before);
}
const count = async (svc: TestService) => (await svc.database.db.select({ id: auditEntries.id }).from(auditEntries)).length;

/** Runs `change` and answers the one entry it wrote (failing when it wrote none or several). */
async function oneEntry(svc: TestService, change: () => Promise<unknown>): Promise<Row> {
  const before = await count(svc);
  await change();
  const written = await since(svc, before);
  expect(written.map((r) => r.action)).toHaveLength(1);
  return written[0]!;
}

async function noEntry(svc: TestService, change: () => Promise<unknown>): Promise<void> {
  const before = await count(svc);
  await change();
  expect(await since(svc, before)).toEqual([]);
}

const ok = async (res: Promise<{ status: number; body: unknown }>, status = 200): Promise<unknown> => {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};

let n = 0;
/** A shared location of the owner, with the admin as its admin. */
async function sharedLocation(svc: TestService, as: Record<string, Client>, name: string): Promise<string> {
  const made = await ok(as.owner!.post("/api/v1/locations", { name }), 201);
  const id = (made as { id: string }).id;
  await svc.database.db.insert(memberships).values({ id: uuidv7(), locationId: id, userId: as.admin!.userId, role: "admin" });
  return id;
}

const list = async (c: Client, path: string): Promise<AuditEntry[]> => auditListSchema.parse(await ok(c.get(path))).items;

describe("every action leaves exactly one entry", () => {
  test("personal tokens: made and revoked (revoking again records nothing)", async ({ svc, loc, as }) => {
    let secret = "";
    let id = "";
    const made = await oneEntry(svc, async () => {
      const t = tokenCreatedSchema.parse(await ok(as.member.post("/api/v1/tokens", { name: "CI", scope: "read", locationIds: [loc] }), 201));
      secret = t.secret;
      id = t.id;
    });
    expect(made).toMatchObject({ action: "token.created", userId: as.member.userId, locationId: null, actorType: "user", actorUserId: as.member.userId });
    expect(made.params).toEqual({ name: "CI", scope: "read" });
    expect(JSON.stringify(made)).not.toContain(secret.slice(4));
    const revoked = await oneEntry(svc, () => ok(as.member.delete(`/api/v1/tokens/${id}`)));
    expect(revoked).toMatchObject({ action: "token.revoked", params: { name: "CI" } });
    await noEntry(svc, () => ok(as.member.delete(`/api/v1/tokens/${id}`)));
  });

  test("webhooks: made and deleted, named by host only (never the URL's path or query)", async ({ svc, loc, as }) => {
    let id = "";
    let secret = "";
    const made = await oneEntry(svc, async () => {
      const body = await ok(
        as.admin.post(`/api/v1/locations/${loc}/webhooks`, { url: "https://hooks.example/t0ps3cret?key=abc123", events: ["thing.created"] }),
        201,
      );
      ({ id, secret } = body as { id: string; secret: string });
    });
    expect(made).toMatchObject({ action: "webhook.created", userId: null, locationId: loc, actorUserId: as.admin.userId });
    expect(made.params).toMatchObject({ host: "hooks.example", location: expect.any(String) });
    for (const hidden of ["t0ps3cret", "abc123", secret]) expect(JSON.stringify(made)).not.toContain(hidden);
    const deleted = await oneEntry(svc, () => ok(as.admin.delete(`/api/v1/webhooks/${id}`)));
    expect(deleted).toMatchObject({ action: "webhook.deleted", locationId: loc, params: { host: "hooks.example" } });
  });

  test("share links: made and revoked, named by what they show", async ({ svc, loc, as }) => {
    const thing = (await ok(as.member.post(`/api/v1/locations/${loc}/things`, { name: "Drill" }), 201)) as { id: string };
    let link = { id: "", url: "" };
    const made = await oneEntry(svc, async () => {
      link = shareLinkCreatedSchema.parse(await ok(as.member.post("/api/v1/share-links", { scope: "thing", targetId: thing.id }), 201));
    });
    expect(made).toMatchObject({ action: "share_link.created", locationId: loc, actorUserId: as.member.userId, params: { scope: "thing", target: "Drill" } });
    expect(JSON.stringify(made)).not.toContain(link.url.split("#")[1]);
    const revoked = await oneEntry(svc, () => ok(as.admin.delete(`/api/v1/share-links/${link.id}`), 204));
    expect(revoked).toMatchObject({ action: "share_link.revoked", actorUserId: as.admin.userId, params: { target: "Drill" } });
  });

  test("OAuth grants: made on consent and revoked by the person", async ({ svc, loc, as }) => {
    const made = await oneEntry(svc, () =>
      grantAndCode(
        svc.database.db,
        { userId: as.viewer.userId, clientName: "Notes app", scopes: ["svc:read"], locationIds: [loc], mfaProven: false },
        {
          clientId: "https://notes.example/app.json",
          redirectUri: "https://notes.example/cb",
          codeChallenge: "x".repeat(43),
          resource: "https://inv.example/mcp",
        },
      ),
    );
    expect(made).toMatchObject({ action: "oauth_grant.created", userId: as.viewer.userId, actorUserId: as.viewer.userId, params: { client: "Notes app" } });
    const [grant] = await svc.database.db
      .select({ id: oauthGrants.id })
      .from(oauthGrants)
      .where(and(eq(oauthGrants.userId, as.viewer.userId), eq(oauthGrants.clientName, "Notes app")));
    const revoked = await oneEntry(svc, () => ok(as.viewer.delete(`/api/v1/oauth/grants/${grant!.id}`)));
    expect(revoked).toMatchObject({ action: "oauth_grant.revoked", userId: as.viewer.userId, params: { client: "Notes app" } });
  });

  test("OAuth grants: a code used twice revokes its grant, recorded as the service's own act", async ({ svc, loc, as }) => {
    const binding = { clientId: "https://leaky.example/app.json", redirectUri: "https://leaky.example/cb", resource: "https://inv.example/mcp" };
    const verifier = "v".repeat(43);
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const code = await grantAndCode(
      svc.database.db,
      { userId: as.member.userId, clientName: "Leaky app", scopes: ["svc:read"], locationIds: [loc], mfaProven: false },
      { ...binding, codeChallenge: challenge },
    );
    expect(await redeemCode(svc.database.db, code, { ...binding, codeVerifier: verifier })).toMatchObject({ ok: true });
    const revoked = await oneEntry(svc, () => redeemCode(svc.database.db, code, { ...binding, codeVerifier: verifier }));
    expect(revoked).toMatchObject({
      action: "oauth_grant.revoked",
      userId: as.member.userId,
      actorType: "system",
      actorUserId: null,
      params: { client: "Leaky app" },
    });
    await noEntry(svc, () => redeemCode(svc.database.db, code, { ...binding, codeVerifier: verifier }));
  });

  test("AI keys: set and cleared; a save that keeps the key records nothing; the key is nowhere", async ({ svc, as }) => {
    const key = `sk-test-${uuidv7()}`;
    const body = { providerKind: "provider_a", model: "gpt-4o" };
    const set = await oneEntry(svc, () => ok(as.admin.request("PUT", "/api/v1/me/ai-settings", { ...body, apiKey: key })));
    expect(set).toMatchObject({ action: "ai_key.set", userId: as.admin.userId, params: { scope: "user", provider: "provider_a" } });
    expect(JSON.stringify(set)).not.toContain(key);
    await noEntry(svc, () => ok(as.admin.request("PUT", "/api/v1/me/ai-settings", { ...body, model: "gpt-4o-mini" })));
    const cleared = await oneEntry(svc, () => ok(as.admin.delete("/api/v1/me/ai-settings"), 204));
    expect(cleared).toMatchObject({ action: "ai_key.cleared", userId: as.admin.userId, params: { scope: "user", provider: "provider_a" } });
  });

  test("locations: deleted, restored and transferred, by name", async ({ svc, as }) => {
    const name = `Garden Shed ${++n}`;
    const loc = await sharedLocation(svc, as, name);
    const deleted = await oneEntry(svc, () => ok(as.owner.delete(`/api/v1/locations/${loc}`, { confirm: name })));
    expect(deleted).toMatchObject({ action: "location.deleted", userId: as.owner.userId, locationId: null, params: { location: name } });
    const restored = await oneEntry(svc, () => ok(as.owner.post(`/api/v1/locations/${loc}/restore`, {})));
    expect(restored).toMatchObject({ action: "location.restored", userId: as.owner.userId, locationId: null, params: { location: name } });
    const transferred = await oneEntry(svc, () => ok(as.owner.post(`/api/v1/locations/${loc}/transfer`, { userId: as.admin.userId, confirm: name })));
    expect(transferred).toMatchObject({
      action: "location.transferred",
      userId: as.owner.userId,
      locationId: loc,
      params: { location: name, to: "Admin Person" },
    });
  });

  test("members: joining by invite and as a managed account", async ({ svc, loc, as }) => {
    const invite = (await ok(as.admin.post(`/api/v1/locations/${loc}/invites`, { role: "viewer" }), 201)) as { token: string };
    const hana = await svc.signedIn("Hana");
    const joined = await oneEntry(svc, () => ok(hana.post("/api/v1/invites/accept", { token: invite.token })));
    expect(joined).toMatchObject({
      action: "member.joined",
      userId: hana.userId,
      locationId: loc,
      actorUserId: hana.userId,
      params: { member: "Hana", role: "viewer" },
    });
    const managed = await oneEntry(svc, () =>
      ok(as.admin.post(`/api/v1/locations/${loc}/managed-accounts`, { username: `kid${++n}x`, displayName: "Kid" }), 201),
    );
    expect(managed).toMatchObject({ action: "member.joined", locationId: loc, actorUserId: as.admin.userId, params: { member: "Kid", role: "member" } });
    // The managed account's own code is never in the entry.
    expect(Object.keys(managed.params).sort()).toEqual(["location", "member", "role"]);
  });
});

describe("an entry exists exactly when the change committed", () => {
  test("refused changes leave none", async ({ svc, loc, as }) => {
    await noEntry(svc, async () => expectError(await as.viewer.post("/api/v1/tokens", { name: "w", scope: "write", locationIds: [loc] }), 403, "forbidden"));
    const name = `Barn ${++n}`;
    const barn = await sharedLocation(svc, as, name);
    await noEntry(svc, async () =>
      expectError(await as.owner.post(`/api/v1/locations/${barn}/transfer`, { userId: as.outsider.userId, confirm: name }), 404, "not_found"),
    );
    await noEntry(svc, async () => expectError(await as.admin.delete(`/api/v1/locations/${barn}`, { confirm: name }), 403, "forbidden"));
    await noEntry(svc, async () =>
      expectError(await as.member.post(`/api/v1/locations/${loc}/webhooks`, { url: "https://hooks.example/x", events: ["thing.created"] }), 403, "forbidden"),
    );
  });

  test("an entry written in a transaction that then fails is rolled back with it", async ({ svc, as }) => {
    await noEntry(svc, () =>
      asSystem(svc.database.db, async (tx) => {
        await recordAudit(
          tx,
          { type: "user", userId: as.owner.userId },
          { action: "token.created" satisfies AuditAction, userId: as.owner.userId, params: { name: "x" } },
        );
        throw new Error("the change failed after the entry");
      }).catch((err: Error) => expect(err.message).toBe("the change failed after the entry")),
    );
  });
});

describe("who reads which entries", () => {
  test("a person reads their own account's entries in words, with themselves as 'you'; nobody else's", async ({ as }) => {
    await ok(
      as.outsider.post("/api/v1/tokens", { name: "Outsider script", scope: "read", locationIds: [(await as.outsider.get("/api/v1/me")).body.locations[0].id] }),
      201,
    );
    const mine = await list(as.outsider, "/api/v1/me/audit");
    expect(mine[0]).toMatchObject({
      action: "token.created",
      actor: { type: "user", name: "Otto Outsider", you: true },
      params: { name: "Outsider script" },
      locationId: null,
    });
    for (const c of [as.owner, as.admin, as.member, as.viewer]) expect(JSON.stringify(await list(c, "/api/v1/me/audit"))).not.toContain("Outsider script");
  });

  test("a location's entries: owner and admins read them; members and viewers 403; others 404", async ({ loc, as }) => {
    await ok(as.admin.post(`/api/v1/locations/${loc}/webhooks`, { url: "https://reader.example/h", events: ["thing.created"] }), 201);
    const forOwner = await list(as.owner, `/api/v1/locations/${loc}/audit`);
    expect(forOwner.find((e) => e.params.host === "reader.example")).toMatchObject({ action: "webhook.created", actor: { name: "Admin Person", you: false } });
    expect((await list(as.admin, `/api/v1/locations/${loc}/audit`)).some((e) => e.params.host === "reader.example")).toBe(true);
    expectError(await as.member.get(`/api/v1/locations/${loc}/audit`), 403, "forbidden");
    expectError(await as.viewer.get(`/api/v1/locations/${loc}/audit`), 403, "forbidden");
    expectError(await as.outsider.get(`/api/v1/locations/${loc}/audit`), 404, "not_found");
  });

  test("a token reads neither list", async ({ svc, loc, as }) => {
    const t = tokenCreatedSchema.parse(await ok(as.owner.post("/api/v1/tokens", { name: "reader", scope: "read", locationIds: [loc] }), 201));
    const c = svc.client();
    for (const path of ["/api/v1/me/audit", `/api/v1/locations/${loc}/audit`])
      expect((await c.request("GET", path, undefined, { authorization: `Bearer ${t.secret}` })).status).toBe(403);
  });
});

describe("paging", () => {
  test("newest first, every entry once across pages, next_cursor null at the end; a foreign cursor is 400", async ({ svc }) => {
    const paged = await svc.signedIn("Paula Pager");
    const home = (await paged.get("/api/v1/me")).body.locations[0].id as string;
    for (let i = 0; i < 5; i++) await ok(paged.post("/api/v1/tokens", { name: `t${i}`, scope: "read", locationIds: [home] }), 201);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = auditListSchema.parse(await ok(paged.get(`/api/v1/me/audit?limit=2${cursor ? `&cursor=${cursor}` : ""}`)));
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((e) => e.params.name ?? ""));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(["t4", "t3", "t2", "t1", "t0"]);
    expectError(await paged.get("/api/v1/me/audit?cursor=bm90LWEtY3Vyc29y"), 400, "validation_failed");
  });
});
