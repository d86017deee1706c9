/**
 * Invitations as owners and admins manage them: the list (paged, newest first, never a token),
 * revoke (a revoked invite cannot be accepted) and resend (a new link; the old one stops working;
 * mailed when the invite names an address). Members and viewers are refused, and so is a token.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { inviteListSchema, type Invite } from "../../../shared/members.js";
import { rows, sql } from "../../../server/db/client.js";
import { expectError } from "../../support/auth.js";
import { locationWithRoles } from "../../support/members.js";

let team: Awaited<ReturnType<typeof locationWithRoles>>;
test.beforeAll(async ({ svc }) => {
  team = await locationWithRoles(svc);
});

const listPath = () => `/api/v1/locations/${team.locationId}/invites`;

async function makeInvite(email?: string): Promise<{ id: string; token: string }> {
  const res = await team.as.admin.post(listPath(), { role: "member", ...(email ? { email } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function listAll(): Promise<Invite[]> {
  const res = await team.as.owner.get(`${listPath()}?limit=200`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return inviteListSchema.parse(res.body).items;
}

describe("list", () => {
  test("owners and admins list invitations newest first, paged, without tokens", async () => {
    const made = [await makeInvite("a@example.test"), await makeInvite(), await makeInvite()];
    const seen: Invite[] = [];
    let cursor: string | null = null;
    do {
      const res = await team.as.admin.get(`${listPath()}?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      const page = inviteListSchema.parse(res.body);
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.slice(0, 3).map((i) => i.id)).toEqual(made.map((m) => m.id).reverse());
    expect(seen[2]).toMatchObject({ email: "a@example.test", role: "member", status: "pending", createdByName: "Admin Person" });
    expect(JSON.stringify(seen)).not.toContain("inv_");
    expect((await team.as.owner.get(`${listPath()}?limit=200`)).status).toBe(200);
    expectError(await team.as.owner.get(`${listPath()}?limit=201`), 400, "validation_failed");
    expectError(await team.as.owner.get(`${listPath()}?limit=0`), 400, "validation_failed");
  });

  test("members and viewers are refused (403), outsiders see no location (404), a token is refused", async ({ svc }) => {
    expectError(await team.as.member.get(listPath()), 403, "forbidden");
    expectError(await team.as.viewer.get(listPath()), 403, "forbidden");
    expectError(await team.as.outsider.get(listPath()), 404, "not_found");
    const made = await team.as.owner.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [team.locationId] });
    const bearer = { authorization: `Bearer ${made.body.secret as string}` };
    const { id } = await makeInvite();
    const c = svc.client();
    expectError(await c.request("GET", listPath(), undefined, bearer), 403, "forbidden");
    expectError(await c.request("DELETE", `/api/v1/invites/${id}`, undefined, bearer), 403, "forbidden");
    expectError(await c.request("POST", `/api/v1/invites/${id}/resend`, {}, bearer), 403, "forbidden");
    expect((await listAll()).find((i) => i.id === id)?.status).toBe("pending");
  });
});

describe("revoke", () => {
  test("a revoked invite cannot be accepted; revoking twice is fine; an accepted one cannot be revoked", async ({ svc }) => {
    const { id, token } = await makeInvite();
    const res = await team.as.admin.delete(`/api/v1/invites/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.status).toBe("revoked");
    expect((await team.as.admin.delete(`/api/v1/invites/${id}`)).status).toBe(200);
    expect((await listAll()).find((i) => i.id === id)?.status).toBe("revoked");
    const newcomer = await svc.signedIn("Too Late");
    expectError(await newcomer.post("/api/v1/invites/accept", { token }), 404, "not_found");

    const used = await makeInvite();
    const joiner = await svc.signedIn("Joiner");
    expect((await joiner.post("/api/v1/invites/accept", { token: used.token })).status).toBe(200);
    expectError(await team.as.owner.delete(`/api/v1/invites/${used.id}`), 409, "conflict");
    expect((await listAll()).find((i) => i.id === used.id)?.status).toBe("accepted");
  });

  test("members, viewers and outsiders cannot revoke (the invite stays live)", async () => {
    const { id } = await makeInvite();
    expectError(await team.as.member.delete(`/api/v1/invites/${id}`), 404, "not_found");
    expectError(await team.as.viewer.delete(`/api/v1/invites/${id}`), 404, "not_found");
    expectError(await team.as.outsider.delete(`/api/v1/invites/${id}`), 404, "not_found");
    expect((await listAll()).find((i) => i.id === id)?.status).toBe("pending");
  });
});

describe("resend", () => {
  test("a new link replaces the old one, for 7 more days, and is mailed to the invite's address", async ({ svc }) => {
    const email = `resend-${Date.now()}@example.test`;
    const { id, token } = await makeInvite(email);
    await svc.database.db.execute(sql`UPDATE invites SET expires_at = now() - interval '1 day' WHERE id = ${id}`);
    expect((await listAll()).find((i) => i.id === id)?.status).toBe("expired");
    const res = await team.as.owner.post(`/api/v1/invites/${id}/resend`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id, token: expect.stringMatching(/^inv_/), mailed: true });
    expect(res.body.token).not.toBe(token);
    const days = (Date.parse(res.body.expiresAt) - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(6.9);
    expect((await listAll()).find((i) => i.id === id)?.status).toBe("pending");

    const dir = path.join(svc.config.dataDir, "mail");
    const mails = await Promise.all((await readdir(dir)).map((f) => readFile(path.join(dir, f), "utf8")));
    // The first mail went out when the invite was made; the resend's carries the new link.
    const sent = mails.filter((m) => m.includes(email));
    expect(sent).toHaveLength(2);
    expect(sent.some((m) => m.includes(`/invite#token=${res.body.token}`))).toBe(true);

    const person = await svc.signedIn("Resent");
    await svc.database.db.execute(sql`UPDATE users SET email = ${email} WHERE id = ${person.userId}`);
    expectError(await person.post("/api/v1/invites/accept", { token }), 404, "not_found");
    expect((await person.post("/api/v1/invites/accept", { token: res.body.token })).status).toBe(200);
  });

  test("an invite without an address is not mailed; a revoked one cannot be resent; members cannot resend", async ({ svc }) => {
    const { id } = await makeInvite();
    const res = await team.as.admin.post(`/api/v1/invites/${id}/resend`);
    expect(res.body.mailed).toBe(false);
    expectError(await team.as.member.post(`/api/v1/invites/${id}/resend`), 404, "not_found");
    await team.as.admin.delete(`/api/v1/invites/${id}`);
    expectError(await team.as.admin.post(`/api/v1/invites/${id}/resend`), 409, "conflict");
    const [row] = await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM invites WHERE id = ${id} AND revoked_at IS NOT NULL`);
    expect(row!.n).toBe(1);
  });
});
