/**
 * The paging convention (spec conventions 6) on the lists of people and credentials: members of a
 * location, personal tokens, signed-in sessions and OAuth grants. Each answers `items` and
 * `next_cursor`, takes `limit` and `cursor`, and walking it page by page yields every row once, in
 * the list's order, even where rows were made in the same microsecond or the same millisecond.
 */
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { v7 as uuidv7 } from "uuid";
import { memberListSchema } from "../../../shared/members.js";
import { rows, sql } from "../../../server/db/client.js";
import { type TestService } from "../../support/app.js";
import type { Client } from "../../support/members.js";
import { expectMalformedCursorsRefused, walkPages } from "../../support/paging.js";
import { op, push } from "../../support/push.js";

/**
 * Creation times for the rows a test adds: three that tie to the microsecond, two within one
 * millisecond (a cursor rounded to milliseconds would lose one), and two far apart.
 */
const STAMPS = [
  "2020-01-01 00:00:00.000100+00",
  "2020-01-01 00:00:00.000200+00",
  "2020-01-01 00:00:00.000200+00",
  "2020-01-01 00:00:00.000200+00",
  "2020-01-01 00:00:00.000201+00",
  "2020-01-01 00:00:00.000900+00",
  "2020-01-02 12:00:00+00",
];

async function newUsers(svc: TestService, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const [row] = await rows<{ id: string }>(
      svc.database.db,
      sql`INSERT INTO users (name, email) VALUES (${`Paged Person ${i}`}, ${`paged-${uuidv7()}@example.test`}) RETURNING id`,
    );
    ids.push(row!.id);
  }
  return ids;
}

/** Walks `path` at two small page sizes and checks the walk against `expected` (ids in list order). */
async function expectWalk(c: Client, path: string, id: (item: any) => string, expected: string[]) {
  expect(expected.length).toBeGreaterThan(6);
  // The first page at the default size holds the whole (small) list and says there is no more.
  const first = await c.get(path);
  expect(first.status, JSON.stringify(first.body)).toBe(200);
  expect(first.body.next_cursor).toBeNull();
  expect(first.body.items.map(id)).toEqual(expected);
  for (const limit of [2, 3]) {
    const walk = await walkPages(c, path, limit);
    expect(walk.pages).toBe(Math.ceil(expected.length / limit));
    const ids = walk.items.map(id);
    expect(new Set(ids).size, "no row twice").toBe(ids.length);
    expect(ids).toEqual(expected);
  }
  // At the bound: a page exactly as long as the list says there is no more; one row past the
  // bound, the first page is full with a cursor, and the second holds the last row alone.
  const q = path.includes("?") ? "&" : "?";
  const exact = await c.get(`${path}${q}limit=${expected.length}`);
  expect(exact.body.items.map(id)).toEqual(expected);
  expect(exact.body.next_cursor).toBeNull();
  const short = await c.get(`${path}${q}limit=${expected.length - 1}`);
  expect(short.body.items.map(id)).toEqual(expected.slice(0, -1));
  expect(short.body.next_cursor).toEqual(expect.any(String));
  const rest = await c.get(`${path}${q}limit=${expected.length - 1}&cursor=${encodeURIComponent(short.body.next_cursor as string)}`);
  expect(rest.body.items.map(id)).toEqual(expected.slice(-1));
  expect(rest.body.next_cursor).toBeNull();
  await expectMalformedCursorsRefused(c, path);
}

describe("GET /api/v1/locations/:id/members", () => {
  test("pages through every member once, oldest membership first, by next_cursor", async ({ svc }) => {
    const owner = await svc.signedIn("Paging Owner");
    const loc = (await owner.get("/api/v1/me")).body.locations[0].id as string;
    const users = await newUsers(svc, STAMPS.length);
    for (const [i, userId] of users.entries()) {
      await svc.database.db.execute(
        sql`INSERT INTO memberships (id, location_id, user_id, role, created_at) VALUES (${uuidv7()}, ${loc}, ${userId}, 'member', ${STAMPS[i]}::timestamptz)`,
      );
    }
    const expected = (
      await rows<{ user_id: string }>(
        svc.database.db,
        sql`SELECT user_id FROM memberships WHERE location_id = ${loc} AND deleted_at IS NULL ORDER BY created_at, user_id`,
      )
    ).map((r) => r.user_id);
    expect(expected).toHaveLength(STAMPS.length + 1);
    const path = `/api/v1/locations/${loc}/members`;
    memberListSchema.parse((await owner.get(`${path}?limit=2`)).body);
    await expectWalk(owner, path, (m) => m.userId, expected);
  });
});

/** A signed-in person whose own rows of a list get STAMPS as their creation times. */
async function personWithStampedRows(svc: TestService, insert: (userId: string, stamp: string, i: number, loc: string) => Promise<void>): Promise<Client> {
  const c = await svc.signedIn("Paged Owner");
  const loc = (await c.get("/api/v1/me")).body.locations[0].id as string;
  for (const [i, stamp] of STAMPS.entries()) await insert(c.userId, stamp, i, loc);
  return c;
}

describe("GET /api/v1/tokens", () => {
  test("pages through every token once, newest first, by next_cursor", async ({ svc }) => {
    const c = await personWithStampedRows(svc, (userId, stamp, i, loc) =>
      svc.database.db
        .execute(
          sql`INSERT INTO personal_tokens (id, user_id, name, lookup, hmac, scope, location_ids, created_at)
              VALUES (${uuidv7()}, ${userId}, ${`Token ${i}`}, ${`pg${uuidv7().replace(/-/g, "").slice(-10)}`}, 'x', 'read', ARRAY[${loc}::uuid], ${stamp}::timestamptz)`,
        )
        .then(() => undefined),
    );
    const expected = (
      await rows<{ id: string }>(svc.database.db, sql`SELECT id FROM personal_tokens WHERE user_id = ${c.userId} ORDER BY created_at DESC, id DESC`)
    ).map((r) => r.id);
    await expectWalk(c, "/api/v1/tokens", (t) => t.id, expected);
  });
});

describe("GET /api/v1/oauth/grants", () => {
  test("pages through every grant once, newest first, by next_cursor", async ({ svc }) => {
    const c = await personWithStampedRows(svc, (userId, stamp, i, loc) =>
      svc.database.db
        .execute(
          sql`INSERT INTO oauth_grants (id, user_id, client_id, client_name, scopes, location_ids, created_at)
              VALUES (${uuidv7()}, ${userId}, ${`https://app-${i}.example/client.json`}, ${`App ${i}`}, '{svc:read}', ARRAY[${loc}::uuid], ${stamp}::timestamptz)`,
        )
        .then(() => undefined),
    );
    const expected = (
      await rows<{ id: string }>(svc.database.db, sql`SELECT id FROM oauth_grants WHERE user_id = ${c.userId} ORDER BY created_at DESC, id DESC`)
    ).map((r) => r.id);
    await expectWalk(c, "/api/v1/oauth/grants", (g) => g.id, expected);
  });
});

describe("GET /api/v1/me/sessions", () => {
  test("pages through every live session once, newest first, by next_cursor", async ({ svc }) => {
    const c = await personWithStampedRows(svc, (userId, stamp) =>
      svc.database.db
        .execute(
          sql`INSERT INTO auth_sessions (id, user_id, token, expires_at, created_at)
              VALUES (${uuidv7()}, ${userId}, ${`paged-${uuidv7()}`}, now() + interval '1 hour', ${stamp}::timestamptz)`,
        )
        .then(() => undefined),
    );
    const expected = (
      await rows<{ id: string }>(
        svc.database.db,
        sql`SELECT id FROM auth_sessions WHERE user_id = ${c.userId} AND expires_at > now() ORDER BY created_at DESC, id DESC`,
      )
    ).map((r) => r.id);
    expect(expected).toHaveLength(STAMPS.length + 1);
    await expectWalk(c, "/api/v1/me/sessions", (s) => s.id, expected);
    // The device asking is marked on whichever page it falls.
    expect((await walkPages(c, "/api/v1/me/sessions", 2)).items.filter((s) => s.current)).toHaveLength(1);
  });
});

/** Gives the rows `ids` (in that order) the STAMPS as `column` of `table`. */
async function restamp(svc: TestService, table: "history_entries" | "inbox_items", column: "at" | "created_at", ids: string[]) {
  for (const [i, id] of ids.entries()) {
    await svc.database.db.execute(sql`UPDATE ${sql.identifier(table)} SET ${sql.identifier(column)} = ${STAMPS[i]}::timestamptz WHERE id = ${id}`);
  }
}

describe("the lists that paged before: history and inbox, on the same cursors", () => {
  test("a thing's history pages through every entry once, newest first", async ({ svc }) => {
    const c = await svc.signedIn("Paged Historian");
    const loc = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const created = await c.post(`/api/v1/locations/${loc}/things`, { name: "Paged kettle" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    for (let v = 1; v < STAMPS.length; v++) {
      const res = await c.patch(`/api/v1/things/${id}`, { rowVersion: v, name: `Paged kettle ${v}` });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const entries = await rows<{ id: string }>(svc.database.db, sql`SELECT id FROM history_entries WHERE entity_id = ${id} ORDER BY at, id`);
    expect(entries).toHaveLength(STAMPS.length);
    await restamp(
      svc,
      "history_entries",
      "at",
      entries.map((e) => e.id),
    );
    const expected = (await rows<{ id: string }>(svc.database.db, sql`SELECT id FROM history_entries WHERE entity_id = ${id} ORDER BY at DESC, id DESC`)).map(
      (r) => r.id,
    );
    await expectWalk(c, `/api/v1/things/${id}/history`, (e) => e.id, expected);
  });

  test("the inbox pages through every open item once, newest first", async ({ svc }) => {
    const c = await svc.signedIn("Paged Capturer");
    const loc = (await c.get("/api/v1/me")).body.locations[0].id as string;
    const res = await push(
      c,
      STAMPS.map((_, i) => op({ name: "thing.capture", locationId: loc, args: { id: uuidv7(), name: `Paged draft ${i}` } })),
    );
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(STAMPS.map(() => "applied"));
    const items = await rows<{ id: string }>(svc.database.db, sql`SELECT id FROM inbox_items WHERE location_id = ${loc} ORDER BY created_at, id`);
    expect(items).toHaveLength(STAMPS.length);
    await restamp(
      svc,
      "inbox_items",
      "created_at",
      items.map((r) => r.id),
    );
    const expected = (
      await rows<{ id: string }>(svc.database.db, sql`SELECT id FROM inbox_items WHERE location_id = ${loc} ORDER BY created_at DESC, id DESC`)
    ).map((r) => r.id);
    await expectWalk(c, `/api/v1/inbox?locationId=${loc}`, (i) => i.id, expected);
  });
});
