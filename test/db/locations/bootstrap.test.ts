/**
 * Sign-up step 2 (spec "Sign-up" rule 5): the owner account, personal location, Unplaced area,
 * owner membership and built-in types are made together, exactly once however often and however
 * concurrently it runs, again on a signed-in request that finds them missing, and by the repair job.
 */
import { randomUUID } from "node:crypto";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { rows, sql, type Db } from "../../../server/db/client.js";
import { users } from "../../../server/db/schema/index.js";
import { bootstrapUser, isBootstrapped, repairBootstraps, resetBootstrapCache } from "../../../server/modules/locations/bootstrap.js";
import { BUILTIN_PLACE_KINDS, BUILTIN_TYPES, UNPLACED_NAME } from "../../../server/modules/locations/seed.js";
import { type TestService } from "../../support/app.js";

const PASSWORD = "correct horse battery";
let db: Db;
let n = 0;

test.beforeAll(async ({ svc }) => {
  db = svc.database.db;
});

/** A user row made directly, as the library's step 1 would, without step 2. */
async function bareUser(name = "Bo Bootstrap") {
  const user = { id: randomUUID(), name, email: `bare${++n}-${Date.now()}@example.test` };
  await db.insert(users).values(user);
  return user;
}

interface Step2 {
  accounts: number;
  personalLocations: number;
  locations: number;
  unplaced: number;
  ownerMemberships: number;
  memberships: number;
  types: Record<string, number>;
  placeKinds: Record<string, number>;
}

/** What step 2 left for a user, counted as the superuser (no RLS). */
async function step2(userId: string): Promise<Step2> {
  const [c] = await rows<Omit<Step2, "types" | "placeKinds">>(
    db,
    sql`WITH acc AS (SELECT id FROM accounts WHERE owner_user_id = ${userId}),
             loc AS (SELECT id, is_personal FROM locations WHERE account_id IN (SELECT id FROM acc))
        SELECT (SELECT count(*) FROM acc)::int AS "accounts",
               (SELECT count(*) FROM loc WHERE is_personal)::int AS "personalLocations",
               (SELECT count(*) FROM loc)::int AS "locations",
               (SELECT count(*) FROM places WHERE is_unplaced AND location_id IN (SELECT id FROM loc))::int AS "unplaced",
               (SELECT count(*) FROM memberships WHERE user_id = ${userId} AND role = 'owner'
                  AND deleted_at IS NULL AND location_id IN (SELECT id FROM loc))::int AS "ownerMemberships",
               (SELECT count(*) FROM memberships WHERE user_id = ${userId})::int AS "memberships"`,
  );
  const perKey = async (table: "types" | "place_kinds") => {
    const r = await rows<{ key: string; count: number }>(
      db,
      sql`SELECT t.builtin_key AS key, count(*)::int AS count FROM ${sql.identifier(table)} t
          JOIN accounts a ON a.id = t.account_id
          WHERE a.owner_user_id = ${userId} AND t.builtin_key IS NOT NULL GROUP BY t.builtin_key`,
    );
    return Object.fromEntries(r.map((x) => [x.key, x.count]));
  };
  return { ...c!, types: await perKey("types"), placeKinds: await perKey("place_kinds") };
}

const exactlyOnce: Step2 = {
  accounts: 1,
  personalLocations: 1,
  locations: 1,
  unplaced: 1,
  ownerMemberships: 1,
  memberships: 1,
  types: Object.fromEntries(BUILTIN_TYPES.map((t) => [t.builtinKey, 1])),
  placeKinds: Object.fromEntries(BUILTIN_PLACE_KINDS.map((k) => [k, 1])),
};

/** Removes a user's step-2 records as the superuser, children first. */
async function dropStep2(userId: string, what: "all" | "membership" | "location" = "all") {
  const locs = sql`(SELECT l.id FROM locations l JOIN accounts a ON a.id = l.account_id WHERE a.owner_user_id = ${userId})`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM memberships WHERE location_id IN ${locs}`);
    if (what === "membership") return;
    // The places' short codes go with them (codes refer to their owners).
    await tx.execute(sql`DELETE FROM codes WHERE location_id IN ${locs}`);
    await tx.execute(sql`DELETE FROM places WHERE location_id IN ${locs}`);
    await tx.execute(sql`DELETE FROM locations WHERE id IN ${locs}`);
    if (what === "location") return;
    // Registries belong to the account.
    for (const t of ["types", "place_kinds"])
      await tx.execute(sql`DELETE FROM ${sql.identifier(t)} WHERE account_id IN (SELECT id FROM accounts WHERE owner_user_id = ${userId})`);
    await tx.execute(sql`DELETE FROM accounts WHERE owner_user_id = ${userId}`);
  });
  resetBootstrapCache();
}

async function signUpAndIn(svc: TestService, name = "Sid Session") {
  const c = svc.client();
  const email = `session${++n}-${Date.now()}@example.test`;
  expect((await c.post("/api/v1/auth/sign-up", { email, password: PASSWORD, name })).status).toBe(200);
  const signIn = await c.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD });
  expect(signIn.status).toBe(200);
  return { c, userId: signIn.body.user.id as string };
}

describe("bootstrapUser", () => {
  test("a new user gets one account, one personal location with its Unplaced area, an owner membership and the built-ins", async () => {
    const user = await bareUser("Ann Lee");
    expect(await isBootstrapped(db, user.id)).toBe(false);
    await bootstrapUser(db, user);
    expect(await step2(user.id)).toEqual(exactlyOnce);
    expect(await isBootstrapped(db, user.id)).toBe(true);
    const [place] = await rows<{ name: string }>(
      db,
      sql`SELECT p.name FROM places p JOIN locations l ON l.id = p.location_id
      JOIN accounts a ON a.id = l.account_id WHERE a.owner_user_id = ${user.id} AND p.is_unplaced`,
    );
    expect(place!.name).toBe(UNPLACED_NAME);
    const [loc] = await rows<{ name: string }>(
      db,
      sql`SELECT l.name FROM locations l JOIN accounts a ON a.id = l.account_id WHERE a.owner_user_id = ${user.id}`,
    );
    expect(loc!.name).toBe("Ann's home");
  });

  test("running it twice leaves exactly one of each record", async () => {
    const user = await bareUser();
    await bootstrapUser(db, user);
    await bootstrapUser(db, user);
    expect(await step2(user.id)).toEqual(exactlyOnce);
  });

  test("running it concurrently leaves exactly one of each record", async () => {
    const user = await bareUser();
    await Promise.all(Array.from({ length: 6 }, () => bootstrapUser(db, user)));
    expect(await step2(user.id)).toEqual(exactlyOnce);
    // And once more concurrently on top of a finished bootstrap.
    await Promise.all(Array.from({ length: 4 }, () => bootstrapUser(db, user)));
    expect(await step2(user.id)).toEqual(exactlyOnce);
  });

  test("concurrent bootstraps of different users do not disturb each other", async () => {
    const people = await Promise.all([1, 2, 3].map(() => bareUser()));
    await Promise.all(people.flatMap((u) => [bootstrapUser(db, u), bootstrapUser(db, u)]));
    for (const u of people) expect(await step2(u.id)).toEqual(exactlyOnce);
  });

  test("it completes a half-finished step 2 without a second location", async () => {
    const user = await bareUser();
    await bootstrapUser(db, user);
    await dropStep2(user.id, "membership");
    await bootstrapUser(db, user);
    expect(await step2(user.id)).toEqual(exactlyOnce);
    await dropStep2(user.id, "location");
    await bootstrapUser(db, user);
    expect(await step2(user.id)).toEqual(exactlyOnce);
  });
});

describe("a signed-in request", () => {
  test("sign-up runs step 2 right away", async ({ svc }) => {
    const { userId } = await signUpAndIn(svc);
    expect(await step2(userId)).toEqual(exactlyOnce);
  });

  test("re-creates the records when they are missing", async ({ svc }) => {
    const { c, userId } = await signUpAndIn(svc);
    await dropStep2(userId);
    expect(await step2(userId)).toMatchObject({ accounts: 0, locations: 0, memberships: 0 });
    const res = await c.get("/api/v1/auth/get-session");
    expect(res.status).toBe(200);
    expect(await step2(userId)).toEqual(exactlyOnce);
  });

  test("re-creates a missing owner membership without making a second location", async ({ svc }) => {
    const { c, userId } = await signUpAndIn(svc);
    await dropStep2(userId, "membership");
    expect((await c.get("/api/v1/auth/get-session")).status).toBe(200);
    expect(await step2(userId)).toEqual(exactlyOnce);
  });

  test("several requests at once after the records vanished still leave one of each", async ({ svc }) => {
    const { c, userId } = await signUpAndIn(svc);
    await dropStep2(userId);
    const answers = await Promise.all(Array.from({ length: 5 }, () => c.get("/api/v1/auth/get-session")));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await step2(userId)).toEqual(exactlyOnce);
  });

  test("an anonymous request creates nothing", async ({ svc }) => {
    const before = await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM accounts`);
    await svc.client().get("/api/v1/auth/get-session");
    expect(await rows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM accounts`)).toEqual(before);
  });
});

describe("repairBootstraps", () => {
  test("fixes every user missing step 2 and leaves the others alone", async ({ svc }) => {
    await repairBootstraps(db); // settle anything earlier tests left
    const untouched = await bareUser();
    await bootstrapUser(db, untouched);
    const before = await step2(untouched.id);
    const bare = await Promise.all([1, 2, 3].map(() => bareUser()));
    const { userId: lostAll } = await signUpAndIn(svc);
    await dropStep2(lostAll);
    const { userId: lostMembership } = await signUpAndIn(svc);
    await dropStep2(lostMembership, "membership");

    expect(await repairBootstraps(db)).toBe(5);
    for (const id of [...bare.map((u) => u.id), lostAll, lostMembership]) expect(await step2(id)).toEqual(exactlyOnce);
    expect(await step2(untouched.id)).toEqual(before);
    const [{ n: locationsOfUntouched }] = (await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM locations l JOIN accounts a ON a.id = l.account_id WHERE a.owner_user_id = ${untouched.id}`,
    )) as [{ n: number }];
    expect(locationsOfUntouched).toBe(1);
  });

  test("a second run finds nothing to fix", async () => {
    await repairBootstraps(db);
    expect(await repairBootstraps(db)).toBe(0);
  });

  test("a user made by the library is reachable through the repaired records", async ({ svc }) => {
    const { userId } = await signUpAndIn(svc);
    await dropStep2(userId);
    await repairBootstraps(db);
    const [row] = await rows<{ role: string; is_personal: boolean }>(
      db,
      sql`SELECT m.role, l.is_personal FROM memberships m JOIN locations l ON l.id = m.location_id WHERE m.user_id = ${userId}`,
    );
    expect(row).toEqual({ role: "owner", is_personal: true });
  });
});

describe("creating a location with a device-made id", () => {
  const counts = async () =>
    (
      await rows<{ locations: number; memberships: number; history: number; places: number }>(
        db,
        sql`SELECT (SELECT count(*)::int FROM locations) AS locations, (SELECT count(*)::int FROM memberships) AS memberships,
                   (SELECT count(*)::int FROM history_entries) AS history, (SELECT count(*)::int FROM places) AS places`,
      )
    )[0]!;

  test("an id that is taken, by one's own location or by someone else's, is 409 conflict and writes nothing; a new one creates", async ({ svc }) => {
    const signUp = async (name: string) => {
      const c = svc.client();
      const email = `maker${++n}-${Date.now()}@example.test`;
      expect((await c.post("/api/v1/auth/sign-up", { email, password: PASSWORD, name })).status).toBe(200);
      expect((await c.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
      return c;
    };
    const alice = await signUp("Alice Maker");
    const bob = await signUp("Bob Maker");
    const aliceHome = (await alice.get("/api/v1/me")).body.locations[0].id as string;
    const bobHome = (await bob.get("/api/v1/me")).body.locations[0].id as string;
    const before = await counts();
    for (const [who, id] of [
      [bob, aliceHome],
      [bob, bobHome],
    ] as const) {
      const res = await who.post("/api/v1/locations", { id, name: "Taken" });
      expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 409, code: "conflict" });
    }
    expect(await counts()).toEqual(before);
    // Alice's location is untouched: Bob is no member of it, and its name is hers.
    expect((await bob.get(`/api/v1/locations/${aliceHome}`)).status).toBe(404);
    expect((await alice.get(`/api/v1/locations/${aliceHome}`)).body.name).not.toBe("Taken");
    const id = randomUUID();
    const made = await bob.post("/api/v1/locations", { id, name: "Garage" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ id, name: "Garage", role: "owner", isPersonal: false });
  });
});
