/**
 * The database enforces roles itself (DESIGN.md "One write path"; spec "Roles in a location":
 * writes by viewers are refused both by the service and by the data layer). These tests go below
 * the service: they open withActor() transactions directly and expect row-level security to answer.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { type Actor, userActor, withActor } from "../../../server/db/actor.js";
import { rows, sql, type Db } from "../../../server/db/client.js";
import { locations, memberships, places, syncLog, things, users } from "../../../server/db/schema/index.js";
import { type TestService } from "../../support/app.js";

const PASSWORD = "correct horse battery";
const INSUFFICIENT_PRIVILEGE = "42501";

let db: Db;
let owner: Actor;
let viewer: Actor;
let member: Actor;
let stranger: Actor;
let locationId: string;
let unplacedId: string;
let typeId: string;
let n = 0;

/** A user made through the real sign-up route (which also runs sign-up step 2). */
async function signUp(svc: TestService, name: string): Promise<Actor> {
  const email = `rls${++n}-${Date.now()}@example.test`;
  const res = await svc.client().post("/api/v1/auth/sign-up", { email, password: PASSWORD, name });
  expect(res.status).toBe(200);
  const [user] = await db.select({ id: users.id, name: users.name }).from(users).where(eq(users.email, email));
  return userActor(user!, { mfaProven: false });
}

async function addMember(userId: string, role: "admin" | "member" | "viewer") {
  const now = new Date();
  await db.insert(memberships).values({ id: randomUUID(), locationId, userId, role, createdAt: now, updatedAt: now });
}

test.beforeAll(async ({ svc }) => {
  db = svc.database.db;
  owner = await signUp(svc, "Olive Owner");
  viewer = await signUp(svc, "Vic Viewer");
  member = await signUp(svc, "Meg Member");
  stranger = await signUp(svc, "Stan Stranger");
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
  await addMember(viewer.userId, "viewer");
  await addMember(member.userId, "member");
});

/** A new thing in the owner's location, in its Unplaced area. */
const newThing = (name: string) => ({ id: randomUUID(), locationId, placeId: unplacedId, typeId, name });

/** The Postgres SQLSTATE of a failure, looking through the driver wrappers. */
function sqlState(err: unknown): string | undefined {
  for (let e: any = err; e; e = e.cause) if (typeof e.code === "string") return e.code;
  return undefined;
}

async function failure(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error("expected the database to refuse");
    },
    (e: unknown) => e,
  );
}

const thingsInLocation = (actor: Actor) =>
  withActor(db, actor, (tx) => tx.select({ id: things.id, name: things.name }).from(things).where(eq(things.locationId, locationId)));

describe("writes below the service", () => {
  test("a viewer's insert is refused by row-level security (42501) and leaves nothing behind", async () => {
    const row = newThing("viewer's attempt");
    const err = await failure(withActor(db, viewer, (tx) => tx.insert(things).values(row)));
    expect(sqlState(err)).toBe(INSUFFICIENT_PRIVILEGE);
    expect(String((err as Error).cause ?? err)).toMatch(/row-level security/i);
    expect(await db.select().from(things).where(eq(things.id, row.id))).toEqual([]);
    expect(await db.select().from(syncLog).where(eq(syncLog.rowId, row.id))).toEqual([]);
  });

  test("the owner's same insert succeeds", async () => {
    const row = newThing("owner's drill");
    const inserted = await withActor(db, owner, (tx) => tx.insert(things).values(row).returning({ id: things.id }));
    expect(inserted).toEqual([{ id: row.id }]);
    const [stored] = await db.select({ name: things.name, rowVersion: things.rowVersion }).from(things).where(eq(things.id, row.id));
    expect(stored).toEqual({ name: "owner's drill", rowVersion: 1 });
  });

  test("a member's insert succeeds too", async () => {
    const row = newThing("member's ladder");
    await withActor(db, member, (tx) => tx.insert(things).values(row));
    expect(await db.select({ id: things.id }).from(things).where(eq(things.id, row.id))).toEqual([{ id: row.id }]);
  });

  test("a viewer's update changes 0 rows, though the viewer can read the row", async () => {
    const row = newThing("lamp");
    await withActor(db, owner, (tx) => tx.insert(things).values(row));
    const seen = await withActor(db, viewer, (tx) => tx.select({ id: things.id }).from(things).where(eq(things.id, row.id)));
    expect(seen).toEqual([{ id: row.id }]);
    const changed = await withActor(db, viewer, (tx) =>
      tx.update(things).set({ name: "renamed by viewer", rowVersion: 2 }).where(eq(things.id, row.id)).returning({ id: things.id }),
    );
    expect(changed).toEqual([]);
    const [stored] = await db.select({ name: things.name, rowVersion: things.rowVersion }).from(things).where(eq(things.id, row.id));
    expect(stored).toEqual({ name: "lamp", rowVersion: 1 });
  });

  test("a viewer's delete (setting the tombstone) changes 0 rows", async () => {
    const row = newThing("kettle");
    await withActor(db, owner, (tx) => tx.insert(things).values(row));
    const changed = await withActor(db, viewer, (tx) =>
      tx.update(things).set({ deletedAt: new Date() }).where(eq(things.id, row.id)).returning({ id: things.id }),
    );
    expect(changed).toEqual([]);
    const [stored] = await db.select({ deletedAt: things.deletedAt }).from(things).where(eq(things.id, row.id));
    expect(stored!.deletedAt).toBeNull();
  });

  test("a read-only actor (read token, svc:read grant) cannot insert even as the owner", async () => {
    const err = await failure(withActor(db, { ...owner, canWrite: false }, (tx) => tx.insert(things).values(newThing("read-only"))));
    expect(sqlState(err)).toBe(INSUFFICIENT_PRIVILEGE);
  });

  test("a viewer cannot promote itself by writing memberships", async () => {
    const err = await failure(
      withActor(db, viewer, (tx) => tx.insert(memberships).values({ id: randomUUID(), locationId, userId: viewer.userId, role: "owner" })),
    );
    expect(sqlState(err)).toBe(INSUFFICIENT_PRIVILEGE);
    // Its own row is visible for leaving (a tombstone) only, so a role change fails the policy check.
    const update = await failure(withActor(db, viewer, (tx) => tx.update(memberships).set({ role: "admin" }).where(eq(memberships.userId, viewer.userId))));
    expect(sqlState(update)).toBe(INSUFFICIENT_PRIVILEGE);
    const roles = await db.select({ role: memberships.role }).from(memberships).where(eq(memberships.userId, viewer.userId));
    expect(roles.map((r) => r.role).sort()).toEqual(["owner", "viewer"]);
  });
});

describe("reads below the service", () => {
  test("a non-member sees 0 rows of the location's things, places and the location itself", async () => {
    expect((await thingsInLocation(owner)).length).toBeGreaterThan(0);
    expect(await thingsInLocation(stranger)).toEqual([]);
    const seen = await withActor(db, stranger, async (tx) => ({
      places: await tx.select({ id: places.id }).from(places).where(eq(places.locationId, locationId)),
      locations: await tx.select({ id: locations.id }).from(locations).where(eq(locations.id, locationId)),
    }));
    expect(seen).toEqual({ places: [], locations: [] });
  });

  test("a non-member's update of the location's things changes 0 rows", async () => {
    const changed = await withActor(db, stranger, (tx) =>
      tx.update(things).set({ name: "stolen" }).where(eq(things.locationId, locationId)).returning({ id: things.id }),
    );
    expect(changed).toEqual([]);
  });

  test("an actor narrowed to other locations (a token's scope) sees none of this one", async () => {
    expect(await thingsInLocation({ ...owner, locationScope: [randomUUID()] })).toEqual([]);
    expect((await thingsInLocation({ ...owner, locationScope: [locationId] })).length).toBeGreaterThan(0);
  });

  test("a location that requires two-factor is hidden until the session proved a factor", async () => {
    await db.update(locations).set({ requiresTwoFactor: true }).where(eq(locations.id, locationId));
    try {
      expect(await thingsInLocation(owner)).toEqual([]);
      expect((await thingsInLocation({ ...owner, mfaProven: true })).length).toBeGreaterThan(0);
    } finally {
      await db.update(locations).set({ requiresTwoFactor: false }).where(eq(locations.id, locationId));
    }
  });

  test("without a user id the actor sees nothing", async () => {
    const [{ count }] = (await withActor(db, { ...owner, userId: "" }, (tx) =>
      rows<{ count: number }>(tx, sql`SELECT count(*)::int AS count FROM things`),
    )) as [{ count: number }];
    expect(count).toBe(0);
  });
});

describe("the change log", () => {
  test("the owner's insert writes a sync_log row through the trigger, in the same transaction", async () => {
    const row = newThing("logged box");
    const txid = await withActor(db, owner, async (tx) => {
      await tx.insert(things).values(row);
      const [r] = await rows<{ txid: string }>(tx, sql`SELECT pg_current_xact_id()::text AS txid`);
      return r!.txid;
    });
    const logged = await db
      .select({ tableName: syncLog.tableName, op: syncLog.op, locationId: syncLog.locationId, txid: syncLog.txid, row: syncLog.row })
      .from(syncLog)
      .where(eq(syncLog.rowId, row.id));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ tableName: "things", op: "insert", locationId, txid: String(txid) });
    expect(logged[0]!.row).toMatchObject({ id: row.id, name: "logged box", location_id: locationId });
  });

  test("app_role cannot read sync_log, even as the owner", async () => {
    const err = await failure(withActor(db, owner, (tx) => tx.select().from(syncLog).limit(1)));
    expect(sqlState(err)).toBe(INSUFFICIENT_PRIVILEGE);
    expect(String((err as Error).cause ?? err)).toMatch(/permission denied/i);
  });

  test("app_role cannot write sync_log directly", async () => {
    const err = await failure(
      withActor(db, owner, (tx) =>
        tx.execute(sql`INSERT INTO sync_log (table_name, op, row_id, location_id, "row", txid)
                       VALUES ('things', 'insert', ${randomUUID()}, ${locationId}, '{}'::jsonb, pg_current_xact_id())`),
      ),
    );
    expect(sqlState(err)).toBe(INSUFFICIENT_PRIVILEGE);
  });

  test("after an actor's transaction the connection is back to the superuser", async () => {
    await withActor(db, viewer, (tx) => tx.select({ id: things.id }).from(things).limit(1));
    const [who] = await rows<{ u: string; setting: string }>(db, sql`SELECT current_user AS u, coalesce(current_setting('app.user_id', true), '') AS setting`);
    expect(who).toEqual({ u: "postgres", setting: "" });
  });
});
