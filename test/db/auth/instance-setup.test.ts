/**
 * Instance setup and administration: POST /api/v1/setup with the one-time code printed at start
 * makes the first instance admin once; instance admins open and close sign-up and list users;
 * nobody else (and no token) reaches /admin.
 */
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { adminSettingsSchema, adminUserListSchema } from "../../../shared/admin.js";
import { rows, sql } from "../../../server/db/client.js";
import { startService, type TestService } from "../../support/app.js";
import { expectError, freshEmail, PASSWORD } from "../../support/auth.js";

// Closed, as a default server: the admin setting is what opens it here.
test.override("serviceEnv", { SVC_SIGNUP_OPEN: "" });

const setup = (svc: TestService, body: Record<string, unknown>, c = svc.client()) => c.post("/api/v1/setup", body);
const adminCount = async (svc: TestService) => (await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM instance_admins`))[0]!.n;

async function signIn(svc: TestService, email: string, password = PASSWORD) {
  const c = svc.client();
  const res = await c.post("/api/v1/auth/sign-in/email", { email, password });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return c;
}

describe("setup", () => {
  test("the setup URL carries the code in its fragment", ({ svc }) => {
    const url = new URL(svc.services.setup.url(svc.config.publicUrl));
    expect(url.pathname).toBe("/setup");
    expect(url.search).toBe("");
    expect(url.hash).toBe(`#code=${svc.services.setup.code}`);
  });

  test("a wrong code is refused and makes nobody", async ({ svc }) => {
    const email = freshEmail("wrong");
    expectError(await setup(svc, { code: "not-the-code", email, name: "Mallory", password: PASSWORD }), 403, "forbidden");
    expectError(await setup(svc, { code: `${svc.services.setup.code}x`, email, name: "Mallory", password: PASSWORD }), 403, "forbidden");
    expect(await adminCount(svc)).toBe(0);
    expect(await rows(svc.database.db, sql`SELECT 1 FROM users WHERE email = ${email}`)).toHaveLength(0);
  });

  test("a short password and a missing field are refused at the edge", async ({ svc }) => {
    expectError(await setup(svc, { code: svc.services.setup.code, email: freshEmail(), name: "A", password: "short" }), 400, "validation_failed");
    expectError(await setup(svc, { code: svc.services.setup.code, email: freshEmail(), password: PASSWORD }), 400, "validation_failed");
  });

  test("the right code makes the first account an instance admin, once; then setup is refused", async ({ svc }) => {
    const email = freshEmail("admin");
    const res = await setup(svc, { code: ` ${svc.services.setup.code} `, email, name: "Ada Admin", password: PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ status: "ready", userId: expect.any(String) });
    expect(await adminCount(svc)).toBe(1);
    const admin = await signIn(svc, email);
    const me = await admin.get("/api/v1/me");
    expect(me.body.user.id).toBe(res.body.userId);
    // The account was made as sign-up makes one: with its personal location.
    expect(me.body.locations.map((l: { isPersonal: boolean }) => l.isPersonal)).toEqual([true]);

    expectError(await setup(svc, { code: svc.services.setup.code, email: freshEmail(), name: "Second", password: PASSWORD }), 409, "conflict");
    expect(await adminCount(svc)).toBe(1);
  });
});

describe("admin", () => {
  let admin: Awaited<ReturnType<typeof signIn>>;
  test.beforeAll(async ({ svc }) => {
    const [row] = await rows<{ email: string }>(svc.database.db, sql`SELECT u.email FROM instance_admins a JOIN users u ON u.id = a.user_id`);
    admin = await signIn(svc, row!.email);
  });

  test("an instance admin opens sign-up, and sign-up then works; closing it closes sign-up again", async ({ svc }) => {
    const before = adminSettingsSchema.parse((await admin.get("/api/v1/admin/settings")).body);
    expect(before).toEqual({ signupOpen: false, signupOpenByConfig: false });
    expectError(await svc.client().post("/api/v1/auth/sign-up", { email: freshEmail(), password: PASSWORD, name: "Early" }), 403, "signup_closed");

    const opened = await admin.patch("/api/v1/admin/settings", { signupOpen: true });
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body).toEqual({ signupOpen: true, signupOpenByConfig: false });
    const up = await svc.client().post("/api/v1/auth/sign-up", { email: freshEmail(), password: PASSWORD, name: "Welcome" });
    expect(up.status, JSON.stringify(up.body)).toBe(200);

    expect((await admin.patch("/api/v1/admin/settings", { signupOpen: false })).body.signupOpen).toBe(false);
    expectError(await svc.client().post("/api/v1/auth/sign-up", { email: freshEmail(), password: PASSWORD, name: "Late" }), 403, "signup_closed");
    expectError(await admin.patch("/api/v1/admin/settings", { signupOpen: "yes" }), 400, "validation_failed");
    expectError(await admin.patch("/api/v1/admin/settings", { signupOpen: true, other: 1 }), 400, "validation_failed");
  });

  test("users are listed oldest first in pages with next_cursor", async ({ svc }) => {
    await admin.patch("/api/v1/admin/settings", { signupOpen: true });
    for (let i = 0; i < 3; i++) await svc.signedIn(`Paged ${i}`);
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await admin.get(`/api/v1/admin/users?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const page = adminUserListSchema.parse(res.body);
      expect(page.items.length).toBeLessThanOrEqual(2);
      all.push(...page.items.map((u) => u.name));
      cursor = page.next_cursor;
    } while (cursor);
    const [{ n }] = (await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM users`)) as [{ n: number }];
    expect(all).toHaveLength(n);
    expect(all[0]).toBe("Ada Admin");
    const first = adminUserListSchema.parse((await admin.get("/api/v1/admin/users?limit=1")).body);
    expect(first.items[0]!.instanceAdmin).toBe(true);
    // Limits: 200 is the most a page holds, 201 is refused.
    expect((await admin.get("/api/v1/admin/users?limit=200")).status).toBe(200);
    expectError(await admin.get("/api/v1/admin/users?limit=201"), 400, "validation_failed");
    expectError(await admin.get("/api/v1/admin/users?cursor=bogus"), 400, "validation_failed");
  });

  test("anyone else is refused: a signed-in non-admin (403), nobody (401), a personal token (403)", async ({ svc }) => {
    await admin.patch("/api/v1/admin/settings", { signupOpen: true });
    const person = await svc.signedIn("Not Admin");
    for (const [method, path, body] of [
      ["GET", "/api/v1/admin/settings", undefined],
      ["PATCH", "/api/v1/admin/settings", { signupOpen: true }],
      ["GET", "/api/v1/admin/users", undefined],
    ] as const) {
      expectError(await person.request(method, path, body), 403, "forbidden");
      expectError(await svc.client().request(method, path, body), 401, "unauthenticated");
    }
    // Even an instance admin's own token never reaches /admin.
    const me = await admin.get("/api/v1/me");
    const made = await admin.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [me.body.locations[0].id] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const bearer = { authorization: `Bearer ${made.body.secret as string}` };
    const c = svc.client();
    expectError(await c.request("GET", "/api/v1/admin/users", undefined, bearer), 403, "forbidden");
    expectError(await c.request("PATCH", "/api/v1/admin/settings", { signupOpen: false }, bearer), 403, "forbidden");
    expect(adminSettingsSchema.parse((await admin.get("/api/v1/admin/settings")).body).signupOpen).toBe(true);
  });
});

test("wrong setup codes are rate-limited per address", async () => {
  const other = await startService({ SVC_SIGNUP_OPEN: "" });
  try {
    const c = other.client();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await c.post("/api/v1/setup", { code: `guess-${i}`, email: freshEmail(), name: "G", password: PASSWORD })).status);
    // Three free failures, then growing delays: the next guess waits.
    expect(statuses.slice(0, 3)).toEqual([403, 403, 403]);
    expect(statuses).toContain(429);
    // The right code from that address waits too; from another address it works.
    expect((await c.post("/api/v1/setup", { code: other.services.setup.code, email: freshEmail(), name: "G", password: PASSWORD })).status).toBe(429);
    const ok = await other.client().post("/api/v1/setup", { code: other.services.setup.code, email: freshEmail(), name: "G", password: PASSWORD });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  } finally {
    await other.close();
  }
});
