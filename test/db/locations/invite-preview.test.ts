/**
 * An invitation as the invited person meets it: the mail (sent when the invite names an address,
 * through a real SMTP server in the test process) says which location, who invites and as what
 * role, and so does POST /invites/preview for whoever holds the live token, with no sign-in. A
 * dead, used, revoked or unknown token answers one 404; lookups count against the per-address
 * limit on token redemptions.
 */
import { describe, expect } from "vitest";
import { mailTest as test } from "../../support/fixtures.js";
import { invitePreviewSchema } from "../../../shared/members.js";
import { TOKEN_REDEMPTIONS } from "../../../server/auth/limits.js";
import { rows, sql } from "../../../server/db/client.js";
import { type TestService } from "../../support/app.js";
import { expectError } from "../../support/auth.js";
import { locationWithRoles } from "../../support/members.js";
import { tokenFromLink } from "../../support/smtp.js";

let team: Awaited<ReturnType<typeof locationWithRoles>>;
test.beforeAll(async ({ svc }) => {
  team = await locationWithRoles(svc);
  await team.as.owner.patch(`/api/v1/locations/${team.locationId}`, {
    name: "Workshop",
    rowVersion: (await team.as.owner.get(`/api/v1/locations/${team.locationId}`)).body.rowVersion,
  });
});

const invitePath = () => `/api/v1/locations/${team.locationId}/invites`;
const preview = (svc: TestService, token: unknown) => svc.client().post("/api/v1/invites/preview", { token });

describe("the invitation mail", () => {
  test("an invite naming an address is mailed: location, inviter, role and the link, which previews and accepts", async ({ svc, smtp }) => {
    const email = `invited-${Date.now()}@example.test`;
    const made = await team.as.admin.post(invitePath(), { role: "viewer", email });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.mailed).toBe(true);
    const mail = await smtp.waitFor(email);
    expect(mail.raw).toMatch(/Subject: Admin Person invites you to\s+Workshop\s+in\s+Inventory/);
    expect(mail.text).toContain("Admin Person invites you to share a location in Inventory");
    expect(mail.text).toContain("  Workshop");
    expect(mail.text).toContain("You would join as a viewer");
    const token = tokenFromLink(mail, "invite");
    expect(token).toBe(made.body.token);

    const res = await preview(svc, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(invitePreviewSchema.strict().parse(res.body)).toEqual({
      locationName: "Workshop",
      invitedBy: "Admin Person",
      role: "viewer",
      expiresAt: made.body.expiresAt,
      forOneAddress: true,
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
    // Looking does not spend it: the invited person still accepts with it.
    const person = await svc.signedIn("Invited Person");
    await svc.database.db.execute(sql`UPDATE users SET email = ${email} WHERE id = ${person.userId}`);
    expect((await person.post("/api/v1/invites/accept", { token })).body).toEqual({ locationId: team.locationId, role: "viewer" });
    expectError(await preview(svc, token), 404, "not_found");
  });

  test("an invite without an address sends no mail and previews for anyone holding the link", async ({ svc, smtp }) => {
    const before = smtp.mails.length;
    const made = await team.as.owner.post(invitePath(), { role: "member" });
    expect(made.body.mailed).toBe(false);
    const res = await preview(svc, made.body.token);
    expect(res.body).toMatchObject({ locationName: "Workshop", invitedBy: "Olive Owner", role: "member", forOneAddress: false });
    expect(smtp.mails.length).toBe(before);
  });

  test("a resent invite is mailed with the same details, and only the new link previews", async ({ svc, smtp }) => {
    const email = `resent-${Date.now()}@example.test`;
    const made = await team.as.admin.post(invitePath(), { role: "member", email });
    await smtp.waitFor(email);
    const again = await team.as.owner.post(`/api/v1/invites/${made.body.id as string}/resend`);
    expect(again.body.mailed).toBe(true);
    const mail = await smtp.waitFor(email);
    expect(mail.text).toContain("Olive Owner invites you to share a location in Inventory");
    expect(tokenFromLink(mail, "invite")).toBe(again.body.token);
    expectError(await preview(svc, made.body.token), 404, "not_found");
    expect((await preview(svc, again.body.token)).body).toMatchObject({ locationName: "Workshop", role: "member" });
  });
});

describe("the preview tells nothing without a live token", () => {
  test("unknown, revoked and expired tokens are one 404; a bad body is a 400; nothing changes", async ({ svc }) => {
    const revoked = await team.as.admin.post(invitePath(), { role: "member" });
    await team.as.admin.delete(`/api/v1/invites/${revoked.body.id as string}`);
    const expired = await team.as.admin.post(invitePath(), { role: "admin" });
    await svc.database.db.execute(sql`UPDATE invites SET expires_at = now() - interval '1 minute' WHERE id = ${expired.body.id as string}`);
    const answers = [await preview(svc, "inv_not-a-real-token"), await preview(svc, revoked.body.token), await preview(svc, expired.body.token)];
    for (const res of answers) expectError(res, 404, "not_found");
    expect(new Set(answers.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expectError(await preview(svc, ""), 400, "validation_failed");
    expectError(await preview(svc, 42), 400, "validation_failed");
    expectError(await preview(svc, "x".repeat(201)), 400, "validation_failed");
    const [row] = await rows<{ n: number }>(
      svc.database.db,
      sql`SELECT count(*)::int AS n FROM invites WHERE accepted_at IS NOT NULL AND id IN (${revoked.body.id as string}, ${expired.body.id as string})`,
    );
    expect(row!.n).toBe(0);
  });

  test("lookups count against the per-address limit on token redemptions: then 429 with Retry-After", async ({ svc }) => {
    const made = await team.as.admin.post(invitePath(), { role: "member" });
    const device = svc.client();
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i <= TOKEN_REDEMPTIONS.points && !retryAfter; i++) {
      const res = await device.post("/api/v1/invites/preview", { token: made.body.token });
      statuses.push(res.status);
      if (res.status === 429) {
        expectError(res, 429, "rate_limited");
        retryAfter = res.headers.get("retry-after");
      }
    }
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
    expect(statuses.at(-1)).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // Another address is not held back by this one.
    expect((await preview(svc, made.body.token)).status).toBe(200);
  });
});
