/**
 * Managed accounts (spec "Managed accounts", "Managed-account password" state table): an owner or
 * admin creates one in a location (at most 20 there) or resets it, and is handed a one-time code;
 * the person redeems it at POST /api/v1/auth/reset-code to set their own password. The user row
 * gets a synthetic address (<id>@managed.invalid) that is never shown or mailed.
 */
import { randomUUID } from "node:crypto";
import { MAX_MANAGED_ACCOUNTS, type ManagedAccountCode } from "../../../shared/managed-accounts.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, asSystem, withActor } from "../../db/actor.js";
import { type Db, isUniqueViolation } from "../../db/client.js";
import { ConflictError, NotFoundError } from "../../errors/classes.js";
import { locationAccess } from "../../access/location.js";
import { requirePerson, requireRole } from "../../access/role.js";
import { runSystem } from "../write.js";
import { CODE_TTL_MS, hashCode, newCode } from "./codes.js";
import { forgetPassword, insertManagedAccount, lockedManagedCount, setCode, usernameTaken } from "./repository.js";

/** Owner or admin of a location the actor can see; otherwise 404 (not a member) or 403. */
async function requireAdmin(db: Db, actor: Actor, locationId: string): Promise<void> {
  requirePerson(actor, "Managed accounts are handled from a signed-in session only.");
  const { role } = await withActor(db, actor, (tx) => locationAccess(tx, locationId));
  requireRole(role, "admin", `Your role (${role}) cannot manage accounts here; ask an owner or admin.`, { role, needed: "admin" });
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
      if ((await lockedManagedCount(tx, locationId)) >= MAX_MANAGED_ACCOUNTS) {
        throw new ConflictError(`A location holds at most ${MAX_MANAGED_ACCOUNTS} managed accounts.`, { limit: MAX_MANAGED_ACCOUNTS });
      }
      if (await usernameTaken(tx, body.username)) throw new ConflictError("This username is taken; choose another.");
      await insertManagedAccount(tx, {
        id,
        displayName: body.displayName,
        username: body.username,
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
    const now = new Date();
    if (!(await setCode(tx, userId, locationId, hashCode(secret, userId, code), new Date(now.getTime() + CODE_TTL_MS), now)))
      throw new NotFoundError("managed account");
    await forgetPassword(tx, userId);
  });
  return { id: userId, code };
}
