/**
 * Upgrading a database made before registries belonged to the owner account (migration 0017):
 * every location had been seeded with its own built-in types and place kinds. After the upgrade an
 * account keeps one of each key, and nothing that pointed at a dropped duplicate is left dangling.
 */
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { migrate, rows, sql, type Database } from "../../../server/db/client.js";
import { emptyDb, olderMigrations } from "../../support/older-migrations.js";

const FIRST_NEW = 17;

let database: Database;
const id = () => uuidv7();
const ids = {
  owner: id(),
  account: id(),
  personal: id(),
  second: id(),
  other: id(),
  otherAccount: id(),
  otherLocation: id(),
  // Built-ins of each location, as every location used to get them.
  thing1: id(),
  box1: id(),
  thing2: id(),
  box2: id(),
  thing3: id(),
  room1: id(),
  room2: id(),
  camera: id(),
  serialField: id(),
  unplaced2: id(),
  kitchen2: id(),
  lamp: id(),
  snap: id(),
  brand: id(),
};

beforeAll(async () => {
  database = await emptyDb();
  await migrate(database, olderMigrations(FIRST_NEW));
  const q = (s: ReturnType<typeof sql>) => database.db.execute(s);
  await q(sql`INSERT INTO users (id, name, email) VALUES (${ids.owner}, 'Owner', 'owner@example.test'), (${ids.other}, 'Other', 'other@example.test')`);
  await q(sql`INSERT INTO accounts (id, owner_user_id) VALUES (${ids.account}, ${ids.owner}), (${ids.otherAccount}, ${ids.other})`);
  // The personal location is made second, so "oldest" and "personal" disagree: personal wins.
  await q(sql`INSERT INTO locations (id, account_id, name, is_personal, created_at) VALUES
    (${ids.second}, ${ids.account}, 'Garage', false, now() - interval '2 days'),
    (${ids.personal}, ${ids.account}, 'Home', true, now() - interval '1 day'),
    (${ids.otherLocation}, ${ids.otherAccount}, 'Elsewhere', true, now())`);
  await q(sql`INSERT INTO types (id, location_id, builtin_key, icon) VALUES
    (${ids.thing1}, ${ids.personal}, 'thing', 'thing'), (${ids.box1}, ${ids.personal}, 'box', 'box'),
    (${ids.thing2}, ${ids.second}, 'thing', 'thing'), (${ids.box2}, ${ids.second}, 'box', 'box'),
    (${ids.thing3}, ${ids.otherLocation}, 'thing', 'thing')`);
  await q(sql`INSERT INTO types (id, location_id, name, parent_id, group_ids) VALUES
    (${ids.camera}, ${ids.second}, 'Camera', ${ids.thing2}, ARRAY[${ids.box2}]::uuid[])`);
  await q(
    sql`INSERT INTO type_fields (id, location_id, type_id, key, label, kind) VALUES (${ids.serialField}, ${ids.second}, ${ids.thing2}, 'serial_no', 'Serial', 'text')`,
  );
  await q(
    sql`INSERT INTO place_kinds (id, location_id, builtin_key, icon) VALUES (${ids.room1}, ${ids.personal}, 'room', 'room'), (${ids.room2}, ${ids.second}, 'room', 'room')`,
  );
  await q(sql`INSERT INTO places (id, location_id, name, is_unplaced) VALUES (${ids.unplaced2}, ${ids.second}, 'Unplaced', true)`);
  await q(sql`INSERT INTO places (id, location_id, name, kind_id) VALUES (${ids.kitchen2}, ${ids.second}, 'Kitchen', ${ids.room2})`);
  await q(sql`INSERT INTO brands (id, location_id, name) VALUES (${ids.brand}, ${ids.second}, 'Acme')`);
  await q(sql`INSERT INTO things (id, location_id, type_id, name, place_id, brand_id) VALUES
    (${ids.lamp}, ${ids.second}, ${ids.thing2}, 'Lamp', ${ids.kitchen2}, ${ids.brand}),
    (${ids.snap}, ${ids.second}, ${ids.camera}, 'Snap', ${ids.kitchen2}, null)`);
  await migrate(database);
}, 120_000);
afterAll(async () => database?.close());

const one = async <T>(s: ReturnType<typeof sql>) => (await rows<T>(database.db, s))[0]!;

describe("migration 0017: registries move to the owner account", () => {
  test("an account keeps one built-in of each key, the personal location's", async () => {
    const found = await rows<{ id: string; key: string }>(
      database.db,
      sql`SELECT id, builtin_key AS key FROM types WHERE account_id = ${ids.account} AND builtin_key IS NOT NULL ORDER BY builtin_key`,
    );
    expect(found).toEqual([
      { id: ids.box1, key: "box" },
      { id: ids.thing1, key: "thing" },
    ]);
    const kinds = await rows<{ id: string }>(database.db, sql`SELECT id FROM place_kinds WHERE account_id = ${ids.account}`);
    expect(kinds.map((k) => k.id)).toEqual([ids.room1]);
  });

  test("things, places, fields, parents and groups point at the kept built-ins; changed things have a new version", async () => {
    const lamp = await one<{ type_id: string; row_version: number }>(sql`SELECT type_id, row_version FROM things WHERE id = ${ids.lamp}`);
    expect(lamp).toEqual({ type_id: ids.thing1, row_version: 2 });
    const snap = await one<{ type_id: string; row_version: number }>(sql`SELECT type_id, row_version FROM things WHERE id = ${ids.snap}`);
    expect(snap).toEqual({ type_id: ids.camera, row_version: 1 });
    const kitchen = await one<{ kind_id: string }>(sql`SELECT kind_id FROM places WHERE id = ${ids.kitchen2}`);
    expect(kitchen.kind_id).toBe(ids.room1);
    const field = await one<{ type_id: string; account_id: string }>(sql`SELECT type_id, account_id FROM type_fields WHERE id = ${ids.serialField}`);
    expect(field).toEqual({ type_id: ids.thing1, account_id: ids.account });
    const camera = await one<{ parent_id: string; group_ids: string[]; account_id: string }>(
      sql`SELECT parent_id, group_ids::text[] AS group_ids, account_id FROM types WHERE id = ${ids.camera}`,
    );
    expect(camera).toEqual({ parent_id: ids.thing1, group_ids: [ids.box1], account_id: ids.account });
    const brand = await one<{ account_id: string }>(sql`SELECT account_id FROM brands WHERE id = ${ids.brand}`);
    expect(brand.account_id).toBe(ids.account);
  });

  test("another account keeps its own built-ins", async () => {
    const found = await rows<{ id: string }>(database.db, sql`SELECT id FROM types WHERE account_id = ${ids.otherAccount}`);
    expect(found.map((r) => r.id)).toEqual([ids.thing3]);
  });

  test("devices learn of the dropped duplicates, and later registry changes are logged by account", async () => {
    const deletes = await rows<{ row_id: string }>(database.db, sql`SELECT row_id FROM sync_log WHERE table_name = 'types' AND op = 'delete' ORDER BY row_id`);
    expect(deletes.map((d) => d.row_id).sort()).toEqual([ids.thing2, ids.box2].sort());
    const tag = id();
    await database.db.execute(sql`INSERT INTO tags (id, account_id, name) VALUES (${tag}, ${ids.account}, 'Fragile')`);
    const logged = await one<{ location_id: string | null; account_id: string }>(sql`SELECT location_id, account_id FROM sync_log WHERE row_id = ${tag}`);
    expect(logged).toEqual({ location_id: null, account_id: ids.account });
  });
});
