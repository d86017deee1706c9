/**
 * Sign-up step 2 (spec "Sign-up" rule 5): the owner account, personal location, Unplaced area and
 * owner membership, made together in one transaction. Idempotent and safe under concurrency: it
 * runs after user creation, again on every signed-in request that finds it missing, and from the
 * hourly repair job.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { Db } from "../../db/client.js";
import { asSystem } from "../../db/actor.js";
import { accounts, locations, memberships, users } from "../../db/schema/index.js";
import { seedLocation } from "./seed.js";

/** Users known to be bootstrapped by this process; saves a query on every request. */
const done = new Set<string>();

export async function isBootstrapped(db: Db, userId: string): Promise<boolean> {
  if (done.has(userId)) return true;
  const [row] = await db
    .select({ id: memberships.id })
    .from(accounts)
    .innerJoin(locations, and(eq(locations.accountId, accounts.id), eq(locations.isPersonal, true)))
    .innerJoin(memberships, and(eq(memberships.locationId, locations.id), eq(memberships.userId, userId), isNull(memberships.deletedAt)))
    .where(eq(accounts.ownerUserId, userId))
    .limit(1);
  if (row) done.add(userId);
  return !!row;
}

export async function bootstrapUser(db: Db, user: { id: string; name: string }): Promise<void> {
  await asSystem(db, async (tx) => {
    await tx.insert(accounts).values({ id: uuidv7(), ownerUserId: user.id }).onConflictDoNothing();
    const [account] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.ownerUserId, user.id));
    if (!account) throw new Error("owner account missing after insert");
    await seedLocation(tx, {
      id: uuidv7(),
      accountId: account.id,
      name: personalLocationName(user.name),
      isPersonal: true,
      ownerUserId: user.id,
      now: new Date(),
    });
  });
  done.add(user.id);
}

export async function ensureBootstrapped(db: Db, user: { id: string; name: string }): Promise<void> {
  if (!(await isBootstrapped(db, user.id))) await bootstrapUser(db, user);
}

function personalLocationName(name: string): string {
  const first = name.trim().split(/\s+/)[0] || "My";
  return `${first}'s home`.slice(0, 120);
}

/** The hourly repair: bootstraps every user whose step 2 is missing. Returns how many it fixed. */
export async function repairBootstraps(db: Db): Promise<number> {
  const missing = await db
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(
      sql`NOT EXISTS (SELECT 1 FROM accounts a JOIN locations l ON l.account_id = a.id AND l.is_personal
                      JOIN memberships m ON m.location_id = l.id AND m.user_id = a.owner_user_id AND m.deleted_at IS NULL
                      WHERE a.owner_user_id = ${users.id})`,
    );
  for (const u of missing) await bootstrapUser(db, u);
  return missing.length;
}

/** Forgets the per-process cache (tests). */
export function resetBootstrapCache(): void {
  done.clear();
}
