/**
 * The change log below the service (migrations/0015): statement-level triggers stage each
 * statement's changed rows, and the transaction's commit moves them into sync_log under the log's
 * lock, so log order is commit order (sync/SPEC.md SH3) while writers overlap until they commit.
 */
import { randomUUID } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { type Actor, userActor, withActor } from "../../../server/db/actor.js";
import { rows, sql, type Db } from "../../../server/db/client.js";
import { places, syncLog, things, users } from "../../../server/db/schema/index.js";
import { type TestService } from "../../support/app.js";

let db: Db;
let owner: Actor;
let locationId: string;
let unplacedId: string;
let typeId: string;
let me: ReturnType<TestService["client"]>;

test.beforeAll(async ({ svc }) => {
  db = svc.database.db;
  const email = `log-${Date.now()}@example.test`;
  expect((await svc.client().post("/api/v1/auth/sign-up", { email, password: "correct horse battery", name: "Lou Logger" })).status).toBe(200);
  me = svc.client();
  expect((await me.post("/api/v1/auth/sign-in/email", { email, password: "correct horse battery" })).status).toBe(200);
  const [user] = await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.email, email));
  owner = userActor(user!, { mfaProven: false });
  const [loc] = await rows<{ id: string }>(
    db,
    sql`SELECT l.id FROM locations l JOIN accounts a ON a.id = l.account_id WHERE a.owner_user_id = ${owner.userId} AND l.is_personal`,
  );
  locationId = loc!.id;
  const [place] = await db.select({ id: places.id }).from(places).where(eq(places.locationId, locationId));
  unplacedId = place!.id;
  const [type] = await rows<{ id: string }>(
    db,
    sql`SELECT id FROM types WHERE account_id = (SELECT account_id FROM locations WHERE id = ${locationId}) AND builtin_key = 'thing'`,
  );
  typeId = type!.id;
});

const newThing = (name: string) => ({ id: randomUUID(), locationId, placeId: unplacedId, typeId, name });

/** Log entries of the given rows, in log order. */
const logOf = (ids: string[]) =>
  db
    .select({ seq: syncLog.seq, op: syncLog.op, rowId: syncLog.rowId, locationId: syncLog.locationId, txid: syncLog.txid, row: syncLog.row })
    .from(syncLog)
    .where(inArray(syncLog.rowId, ids))
    .orderBy(syncLog.seq);

const currentTxid = async (tx: Parameters<Parameters<typeof withActor>[2]>[0]) =>
  (await rows<{ txid: string }>(tx, sql`SELECT pg_current_xact_id()::text AS txid`))[0]!.txid;

describe("the change log", () => {
  test("SH3 every row a statement changes is logged at commit, in the order of the statements, with the transaction's txid", async () => {
    const [a, b] = [newThing("first"), newThing("second")];
    const txid = await withActor(db, owner, async (tx) => {
      await tx.insert(things).values([a, b]);
      await tx.update(things).set({ name: "first, renamed", rowVersion: 2 }).where(eq(things.id, a.id));
      await tx.update(things).set({ name: "first, renamed again", rowVersion: 3 }).where(eq(things.id, a.id));
      return currentTxid(tx);
    });
    const log = await logOf([a.id, b.id]);
    expect(log.map((l) => [l.op, l.rowId, (l.row as { name: string }).name])).toEqual([
      ["insert", a.id, "first"],
      ["insert", b.id, "second"],
      ["update", a.id, "first, renamed"],
      ["update", a.id, "first, renamed again"],
    ]);
    expect(new Set(log.map((l) => l.txid))).toEqual(new Set([txid]));
    expect(log.every((l) => l.locationId === locationId)).toBe(true);
  });

  test("SH3 rows changed in a rolled-back savepoint are not logged; the rest of the transaction is", async () => {
    const [kept, undone] = [newThing("kept"), newThing("undone")];
    await withActor(db, owner, async (tx) => {
      // The savepoint holds the transaction's first synced write: a later write must still reach the log.
      await tx.execute(sql`SAVEPOINT s`);
      await tx.insert(things).values(undone);
      await tx.execute(sql`ROLLBACK TO SAVEPOINT s`);
      await tx.insert(things).values(kept);
    });
    expect((await logOf([kept.id, undone.id])).map((l) => l.rowId)).toEqual([kept.id]);
  });

  test("SH3 a statement that changes no row logs nothing, and a rolled-back transaction logs nothing", async () => {
    const row = newThing("never");
    const before = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM sync_log`);
    await withActor(db, owner, (tx) => tx.update(things).set({ name: "nobody" }).where(eq(things.id, randomUUID())));
    await withActor(db, owner, async (tx) => {
      await tx.insert(things).values(row);
      tx.rollback();
    }).catch(() => undefined);
    expect(await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM sync_log`)).toEqual(before);
  });

  test("SH3 a write after SET CONSTRAINTS ALL IMMEDIATE (which flushes the log early) is logged too", async () => {
    const [a, b] = [newThing("before the flush"), newThing("after the flush")];
    await withActor(db, owner, async (tx) => {
      await tx.insert(things).values(a);
      await tx.execute(sql`SET CONSTRAINTS ALL IMMEDIATE`);
      await tx.insert(things).values(b);
    });
    expect((await logOf([a.id, b.id])).map((l) => l.rowId)).toEqual([a.id, b.id]);
  });

  test("SH2 a row that changes location leaves the old location's log as a delete, staged before its update under the new one", async () => {
    const made = await me.post("/api/v1/locations", { name: "New flat" });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const target = (made.body as { id: string }).id;
    const [targetUnplaced] = await db.select({ id: places.id }).from(places).where(eq(places.locationId, target));
    const box = newThing("box 1");
    await withActor(db, owner, (tx) => tx.insert(things).values(box));
    // The departure is the transaction's first staged change: its trigger must make the staging table
    // the one way every trigger makes it (a session whose first staged write is a departure).
    await db.execute(sql`DISCARD TEMP`);
    await withActor(db, owner, (tx) => tx.update(things).set({ locationId: target, placeId: targetUnplaced!.id, rowVersion: 2 }).where(eq(things.id, box.id)));
    const log = (await logOf([box.id])).slice(1);
    expect(log.map((l) => [l.op, l.locationId])).toEqual([
      ["delete", locationId],
      ["update", target],
    ]);
    // A later plain write in the same session still stages and logs.
    await withActor(db, owner, (tx) => tx.update(things).set({ name: "box one", rowVersion: 3 }).where(eq(things.id, box.id)));
    expect((await logOf([box.id])).slice(-1).map((l) => [l.op, l.locationId])).toEqual([["update", target]]);
  });

  test("app_role cannot read the rows staged for the log", async () => {
    let refused: unknown = null;
    await withActor(db, owner, async (tx) => {
      await tx.insert(things).values(newThing("staged"));
      refused = await tx.execute(sql`SELECT * FROM pg_temp.sync_log_pending`).then(
        () => null,
        (e: unknown) => e,
      );
    }).catch(() => undefined);
    expect(String((refused as Error | null)?.cause ?? refused)).toMatch(/permission denied/i);
  });

  // PGlite has one connection, so two open writers need PostgreSQL.
  test.runIf(process.env.TEST_DATABASE_URL)(
    "SH3 a writer holds the log's lock only while committing: a second writer commits while the first is open, and comes first in the log",
    async () => {
      const [early, late] = [newThing("written first, committed last"), newThing("written last, committed first")];
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let written!: () => void;
      const wrote = new Promise<void>((r) => (written = r));
      const first = withActor(db, owner, async (tx) => {
        await tx.insert(things).values(early);
        written();
        await held;
      });
      try {
        await wrote;
        const second = withActor(db, owner, (tx) => tx.insert(things).values(late));
        const timeout = new Promise<"blocked">((r) => setTimeout(() => r("blocked"), 5000));
        expect(await Promise.race([second.then(() => "committed" as const), timeout])).toBe("committed");
      } finally {
        release();
        await first;
      }
      expect((await logOf([early.id, late.id])).map((l) => l.rowId)).toEqual([late.id, early.id]);
    },
  );
});
