/**
 * Managed accounts (spec "Managed accounts", "Managed-account password" state table): an owner or
 * admin creates one in a location (at most 20 there) or resets it, and is handed a one-time code;
 * the person redeems it at POST /api/v1/auth/reset-code to set their own password. The user row
 * gets a synthetic address (<id>@managed.invalid) that is never shown or mailed.
 */
import { randomUUID } from "node:crypto";
import { and, count, eq } from "drizzle-orm";
import { MAX_MANAGED_ACCOUNTS, type ManagedAccountCode } from "../../../shared/managed-accounts.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, asSystem, withActor } from "../../db/actor.js";
import { type Db, isUniqueViolation, type Tx } from "../../db/client.js";
import { authAccounts, authSessions, locations, managedAccounts, users } from "../../db/schema/index.js";
import { ConflictError, NotFoundError } from "../../errors/classes.js";
import { SYNTHETIC_EMAIL_DOMAIN } from "../../mail/mailer.js";
import { locationAccess } from "../../access/location.js";
import { requirePerson, requireRole } from "../../access/role.js";
import { runSystem } from "../write.js";
import { CODE_TTL_MS, hashCode, newCode } from "./codes.js";

/** Owner or admin of a location the actor can see; otherwise 404 (not a member) or 403. */
async function requireAdmin(db: Db, actor: Actor, locationId: string): Promise<void> {
  requirePerson(actor, "Managed accounts are handled from a signed-in session only.");
  const { role } = await withActor(db, actor, (tx) => locationAccess(tx, locationId));
  requireRole(role, "admin", `Your role (${role}) cannot manage accounts here; ask an owner or admin.`, { role, needed: "admin" });
}

/** No password known to the person any more: drop it and sign every device out. */
async function forgetPassword(tx: Tx, userId: string): Promise<void> {
  await tx.delete(authAccounts).where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, "credential")));
  await tx.delete(authSessions).where(eq(authSessions.userId, userId));
}

export async function createManagedAccount(
  db: Db,
  secret: string,
  actor: Actor,
  locationId: string,
  body: { username: string; displayName: string },
): Promise<ManagedAccountCode> {
  await requireAdmin(db, actor, locationId);
  const id = randomUUID();
  const code = newCode();
  const now = new Date();
  try {
    await asSystem(db, async (tx) => {
      // Serialises creations in this location, so two at once cannot both take the 20th place.
      await tx.select({ id: locations.id }).from(locations).where(eq(locations.id, locationId)).for("update");
      const [held] = await tx.select({ n: count() }).from(managedAccounts).where(eq(managedAccounts.locationId, locationId));
      if ((held?.n ?? 0) >= MAX_MANAGED_ACCOUNTS) {
        throw new ConflictError(`A location holds at most ${MAX_MANAGED_ACCOUNTS} managed accounts.`, { limit: MAX_MANAGED_ACCOUNTS });
      }
      const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.username, body.username));
      if (taken) throw new ConflictError("This username is taken; choose another.");
      await tx.insert(users).values({
        id,
        name: body.displayName,
        email: `${id}@${SYNTHETIC_EMAIL_DOMAIN}`,
        // Nothing is ever mailed to it; marked proven so no mailed-link rule applies to it.
        emailVerified: true,
        username: body.username,
        displayUsername: body.username,
      });
      await tx.insert(managedAccounts).values({
        userId: id,
        locationId,
        createdBy: actor.userId,
        codeHash: hashCode(secret, id, code),
        codeExpiresAt: new Date(now.getTime() + CODE_TTL_MS),
      });
      await runSystem(tx, actor, { name: "member.join", locationId, args: { userId: id, role: "member" } }, { undoWindowMs: 0 });
      await recordAudit(tx, actor, { action: "member.joined", userId: id, locationId, params: { member: body.displayName, role: "member" } }, now);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError("This username is taken; choose another.");
    throw err;
  }
  return { id, code };
}

/** Issues a new code for a managed account made in this location; the old password stops working. */
export async function resetManagedAccount(db: Db, secret: string, actor: Actor, locationId: string, userId: string): Promise<ManagedAccountCode> {
  await requireAdmin(db, actor, locationId);
  const code = newCode();
  await asSystem(db, async (tx) => {
    const updated = await tx
      .update(managedAccounts)
      .set({ codeHash: hashCode(secret, userId, code), codeExpiresAt: new Date(Date.now() + CODE_TTL_MS), updatedAt: new Date() })
      .where(and(eq(managedAccounts.userId, userId), eq(managedAccounts.locationId, locationId)))
      .returning({ userId: managedAccounts.userId });
    if (!updated.length) throw new NotFoundError("managed account");
    await forgetPassword(tx, userId);
  });
  return { id: userId, code };
}

export { forgetPassword };
