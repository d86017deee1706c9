/** PUT /api/v1/me/hints/{key} and GET /api/v1/me/hints: per person, across devices, bounded, never a token's. */
import { expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { hintListSchema, MAX_HINTS_PER_USER } from "../../../shared/hints.js";
import { sql } from "../../../server/db/client.js";
import { expectError, PASSWORD } from "../../support/auth.js";

test("a hint dismissed on one device reads dismissed on another; another person's hints are their own", async ({ svc }) => {
  const phone = await svc.signedIn("Hana");
  const put = await phone.request("PUT", "/api/v1/me/hints/things.empty", { seen: true });
  expect(put.status, JSON.stringify(put.body)).toBe(200);
  expect(put.body).toMatchObject({ key: "things.empty", seen: true, dismissed: false });
  expect((await phone.request("PUT", "/api/v1/me/hints/things.empty", { dismissed: true })).body).toMatchObject({ seen: true, dismissed: true });

  const laptop = svc.client();
  expect((await laptop.post("/api/v1/auth/sign-in/email", { email: phone.email, password: PASSWORD })).status).toBe(200);
  const list = hintListSchema.parse((await laptop.get("/api/v1/me/hints")).body);
  expect(list.items).toEqual([expect.objectContaining({ key: "things.empty", seen: true, dismissed: true })]);

  const other = await svc.signedIn("Omar");
  expect(hintListSchema.parse((await other.get("/api/v1/me/hints")).body).items).toEqual([]);
  // Undo a dismissal; an empty body changes nothing.
  expect((await laptop.request("PUT", "/api/v1/me/hints/things.empty", { dismissed: false })).body).toMatchObject({ seen: true, dismissed: false });
  expect((await laptop.request("PUT", "/api/v1/me/hints/things.empty", {})).body).toMatchObject({ seen: true, dismissed: false });
});

test("keys are short slugs; bodies hold booleans only", async ({ svc }) => {
  const c = await svc.signedIn("Keys");
  expect((await c.request("PUT", `/api/v1/me/hints/${"a".repeat(64)}`, { seen: true })).status).toBe(200);
  expectError(await c.request("PUT", `/api/v1/me/hints/${"a".repeat(65)}`, { seen: true }), 400, "validation_failed");
  for (const bad of ["Things", "-x", "a%20b", "a%2Fb", "%C3%A9"])
    expectError(await c.request("PUT", `/api/v1/me/hints/${bad}`, { seen: true }), 400, "validation_failed");
  expectError(await c.request("PUT", "/api/v1/me/hints/inbox", { seen: "yes" }), 400, "validation_failed");
  expectError(await c.request("PUT", "/api/v1/me/hints/inbox", { seen: true, extra: 1 }), 400, "validation_failed");
});

test(`a person keeps at most ${MAX_HINTS_PER_USER} hints; changing a kept one still works`, async ({ svc }) => {
  const c = await svc.signedIn("Many");
  const id = c.userId;
  await svc.database.db.execute(
    sql`INSERT INTO user_hints (user_id, key, seen_at) SELECT ${id}, 'h' || g, now() FROM generate_series(1, ${MAX_HINTS_PER_USER - 1}) g`,
  );
  expect((await c.request("PUT", "/api/v1/me/hints/last-one", { seen: true })).status).toBe(200);
  expectError(await c.request("PUT", "/api/v1/me/hints/one-past", { seen: true }), 409, "conflict");
  expect((await c.request("PUT", "/api/v1/me/hints/h1", { dismissed: true })).status).toBe(200);
  expect(hintListSchema.parse((await c.get("/api/v1/me/hints")).body).items).toHaveLength(MAX_HINTS_PER_USER);
});

test("nobody and personal tokens are refused", async ({ svc }) => {
  const c = await svc.signedIn("Tok");
  const loc = (await c.get("/api/v1/me")).body.locations[0].id;
  const made = await c.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [loc] });
  const bearer = { authorization: `Bearer ${made.body.secret as string}` };
  const anon = svc.client();
  expectError(await anon.request("GET", "/api/v1/me/hints", undefined, bearer), 403, "forbidden");
  expectError(await anon.request("PUT", "/api/v1/me/hints/x", { seen: true }, bearer), 403, "forbidden");
  expectError(await anon.get("/api/v1/me/hints"), 401, "unauthenticated");
  expect(hintListSchema.parse((await c.get("/api/v1/me/hints")).body).items).toEqual([]);
});
