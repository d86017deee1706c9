/**
 * The SQL of managed accounts: their user rows, their one-time codes and the password they lose on
 * a reset. The service runs these with its own authority, after its checks.
 */
import { and, count, eq } from "drizzle-orm";
import type { Tx } from "../../db/client.js";
import { authAccounts, authSessions, locations, managedAccounts, users } from "../../db/schema/index.js";
import { SYNTHETIC_EMAIL_DOMAIN } from "../../mail/mailer.js";

/**
 * How many managed accounts the location holds, after locking the location's row: that serialises
 * creations in the location until the transaction ends, so two at once cannot both take the last place.
 */
export async function lockedManagedCount(tx: Tx, locationId: string): Promise<number> {
  await tx.select({ id: locations.id }).from(locations).where(eq(locations.id, locationId)).for("update");
  const [held] = await tx.select({ n: count() }).from(managedAccounts).where(eq(managedAccounts.locationId, locationId));
  return held?.n ?? 0;
}

export async function usernameTaken(tx: Tx, username: string): Promise<boolean> {
  const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.username, username));
  return taken !== undefined;
}

/** The user row, with its synthetic address, and the managed-account row holding its first code. */
export async function insertManagedAccount(
  tx: Tx,
  a: { id: string; displayName: string; username: string; locationId: string; createdBy: string; codeHash: string; codeExpiresAt: Date },
): Promise<void> {
  await tx.insert(users).values({
    id: a.id,
    name: a.displayName,
    email: `${a.id}@${SYNTHETIC_EMAIL_DOMAIN}`,
    // Nothing is ever mailed to it; marked proven so no mailed-link rule applies to it.
    emailVerified: true,
    username: a.username,
    displayUsername: a.username,
  });
  await tx.insert(managedAccounts).values({
    userId: a.id,
    locationId: a.locationId,
    createdBy: a.createdBy,
    codeHash: a.codeHash,
    codeExpiresAt: a.codeExpiresAt,
  });
}

/** Gives a managed account of the location a new code; false when the location has no such account. */
export async function setCode(tx: Tx, userId: string, locationId: string, codeHash: string, codeExpiresAt: Date, now: Date): Promise<boolean> {
  const updated = await tx
    .update(managedAccounts)
    .set({ codeHash, codeExpiresAt, updatedAt: now })
    .where(and(eq(managedAccounts.userId, userId), eq(managedAccounts.locationId, locationId)))
    .returning({ userId: managedAccounts.userId });
  return updated.length > 0;
}

/** No password known to the person any more: drop it and sign every device out. */
export async function forgetPassword(tx: Tx, userId: string): Promise<void> {
  await tx.delete(authAccounts).where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, "credential")));
  await tx.delete(authSessions).where(eq(authSessions.userId, userId));
}
