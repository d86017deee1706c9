/**
 * Invites: an admin makes one (optionally bound to an address); its token is shown once and only
 * its sha256 is kept. Redeemed by a signed-in user (POST /invites/accept) or at sign-up.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { roleAtLeast, type Role } from "../../../shared/roles.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, asSystem } from "../../db/actor.js";
import type { Db, Tx } from "../../db/client.js";
import { invites, memberships, users } from "../../db/schema/index.js";
import { runSystem } from "../write.js";

export const INVITE_TTL_MS = 7 * 86400_000;

export type InviteRow = typeof invites.$inferSelect;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function newInviteToken(): { token: string; tokenHash: string } {
  const token = `inv_${randomBytes(24).toString("base64url")}`;
  return { token, tokenHash: hashToken(token) };
}

/** Stores a new invite (its token's hash only), on the inviting admin's transaction. */
export async function insertInvite(tx: Tx, invite: typeof invites.$inferInsert): Promise<void> {
  await tx.insert(invites).values(invite);
}

/** The invite behind `token` if it can still be used (not expired, accepted or revoked). */
export async function findLiveInvite(db: Db, token: string): Promise<InviteRow | null> {
  const [row] = await db
    .select()
    .from(invites)
    .where(and(eq(invites.tokenHash, hashToken(token)), isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, new Date())));
  return row ?? null;
}

/** An invite bound to an address works only for that address (compared case-insensitively). */
export function inviteFitsEmail(invite: InviteRow, email: string): boolean {
  return invite.email === null || invite.email.toLowerCase() === email.trim().toLowerCase();
}

/**
 * Makes `userId` a member with the invite's role (the member.join command, join.ts) and marks the
 * invite used, in one system transaction (the invite is the authority; the user is not a member yet). An existing member
 * keeps the higher of the two roles. Returns the user's role in the location afterwards, or null
 * when the invite was used, revoked or expired meanwhile.
 */
export async function acceptInviteForUser(db: Db, invite: InviteRow, userId: string): Promise<Role | null> {
  return asSystem(db, async (tx) => {
    const now = new Date();
    const used = await tx
      .update(invites)
      .set({ acceptedAt: now, acceptedBy: userId })
      .where(and(eq(invites.id, invite.id), isNull(invites.acceptedAt), isNull(invites.revokedAt), gt(invites.expiresAt, now)))
      .returning({ id: invites.id });
    if (!used.length) return null;
    const [existing] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.locationId, invite.locationId), eq(memberships.userId, userId), isNull(memberships.deletedAt)))
      .for("update");
    if (existing && roleAtLeast(existing.role, invite.role)) return existing.role;
    // The person acts (they redeemed the invite); the history names them.
    const [user] = await tx.select({ name: users.name }).from(users).where(eq(users.id, userId));
    const actor: Actor = { type: "user", userId, displayName: user?.name ?? "", mfaProven: false, locationScope: null, canWrite: true };
    await runSystem(tx, actor, { name: "member.join", locationId: invite.locationId, args: { userId, role: invite.role } }, { undoWindowMs: 0 });
    await recordAudit(
      tx,
      actor,
      { action: "member.joined", userId, locationId: invite.locationId, params: { member: user?.name ?? "", role: invite.role } },
      now,
    );
    return invite.role;
  });
}
