/**
 * Upgrading a database made before things had a photo list (migration 0033): a thing's photos are
 * its cover first, then the photos its capture brought, each once, only live image files of its
 * own location; a thing without photos keeps an empty list.
 */
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, expect, test } from "vitest";
import { migrate, rows, sql, type Database } from "../../../server/db/client.js";
import { emptyDb, olderMigrations } from "../../support/older-migrations.js";

const FIRST_NEW = 33;

let database: Database;
const [owner, account, home, shed, type, unplaced, shedPlace] = [uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7()];
const [drill, bare, ladder] = [uuidv7(), uuidv7(), uuidv7()];
const [cover, second, pdf, foreign, gone] = [uuidv7(), uuidv7(), uuidv7(), uuidv7(), uuidv7()];

beforeAll(async () => {
  database = await emptyDb();
  await migrate(database, olderMigrations(FIRST_NEW));
  const q = (s: ReturnType<typeof sql>) => database.db.execute(s);
  await q(sql`INSERT INTO users (id, name, email) VALUES (${owner}, 'Owner', 'owner-photos@example.test')`);
  await q(sql`INSERT INTO accounts (id, owner_user_id) VALUES (${account}, ${owner})`);
  await q(sql`INSERT INTO locations (id, account_id, name) VALUES (${home}, ${account}, 'Home'), (${shed}, ${account}, 'Shed')`);
  await q(sql`INSERT INTO types (id, account_id, builtin_key, icon) VALUES (${type}, ${account}, 'thing', 'thing')`);
  await q(
    sql`INSERT INTO places (id, location_id, name, is_unplaced) VALUES (${unplaced}, ${home}, 'Unplaced', true), (${shedPlace}, ${shed}, 'Unplaced', true)`,
  );
  const sha = "a".repeat(64);
  await q(sql`INSERT INTO files (id, location_id, sha256, size, mime, deleted_at) VALUES
    (${cover}, ${home}, ${sha}, 10, 'image/jpeg', NULL), (${second}, ${home}, ${sha}, 10, 'image/png', NULL),
    (${pdf}, ${home}, ${sha}, 10, 'application/pdf', NULL), (${foreign}, ${shed}, ${sha}, 10, 'image/jpeg', NULL),
    (${gone}, ${home}, ${sha}, 10, 'image/jpeg', now())`);
  await q(sql`INSERT INTO things (id, location_id, type_id, name, place_id, cover_file_id) VALUES
    (${drill}, ${home}, ${type}, 'Drill', ${unplaced}, ${cover}), (${bare}, ${home}, ${type}, 'Bare', ${unplaced}, NULL),
    (${ladder}, ${home}, ${type}, 'Ladder', ${unplaced}, NULL)`);
  const photos = (ids: string[]) => JSON.stringify({ photos: ids.map((fileId) => ({ fileId })) });
  await q(sql`INSERT INTO inbox_items (id, location_id, kind, thing_id, batch_id, payload) VALUES
    (${uuidv7()}, ${home}, 'draft', ${drill}, ${uuidv7()}, ${photos([cover, second, pdf, foreign, gone])}::jsonb),
    (${uuidv7()}, ${home}, 'draft', ${ladder}, ${uuidv7()}, ${photos([second])}::jsonb)`);
  await migrate(database);
}, 120_000);

afterAll(async () => {
  await database?.close();
});

test("migration 0033: the cover first, then the capture's photos, each once, only live images of the thing's location", async () => {
  const found = await rows<{ id: string; photos: string[] }>(database.db, sql`SELECT id, photo_file_ids::text[] AS photos FROM things`);
  const of = new Map(found.map((r) => [r.id, r.photos]));
  expect(of.get(drill)).toEqual([cover, second]);
  expect(of.get(ladder)).toEqual([second]);
  expect(of.get(bare)).toEqual([]);
});
