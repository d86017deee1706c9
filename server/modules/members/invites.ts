/**
 * Invites: an admin makes one (optionally bound to an address); its token is shown once and only
 * its sha256 is kept. Redeemed by a signed-in user (POST /invites/accept) or at sign-up.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { roleAtLeast, type Role } from "../../../shared/roles.js";
import { recordAudit } from "../../commands/audit.js";
import { asSystem } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { historyEntries, invites, memberships, users } from "../../db/schema/index.js";

export const INVITE_TTL_MS = 7 * 86400_000;

export type InviteRow = typeof invites.$inferSelect;

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export function newInviteToken(): { token: string; tokenHash: string } {
  const token = `inv_${randomBytes(24).toString("base64url")}`;
  return { token, tokenHash: hashToken(token) };
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
 * Makes `userId` a member with the invite's role and marks the invite used, in one system
 * transaction (the invite is the authority; the user is not a member yet). An existing member
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
      .select()
      .from(memberships)
      .where(and(eq(memberships.locationId, invite.locationId), eq(memberships.userId, userId), isNull(memberships.deletedAt)))
      .for("update");
    const [user] = await tx.select({ name: users.name }).from(users).where(eq(users.id, userId));
    let rowVersion = 1;
    if (!existing) {
      await tx.insert(memberships).values({ id: uuidv7(), locationId: invite.locationId, userId, role: invite.role, createdAt: now, updatedAt: now });
    } else if (!roleAtLeast(existing.role, invite.role)) {
      rowVersion = existing.rowVersion + 1;
      await tx.update(memberships).set({ role: invite.role, rowVersion, updatedAt: now }).where(eq(memberships.id, existing.id));
    } else {
      return existing.role;
    }
    await tx.insert(historyEntries).values({
      id: uuidv7(),
      locationId: invite.locationId,
      entityType: "member",
      entityId: userId,
      entityName: user?.name ?? null,
      action: "member.joined",
      actorType: "user",
      actorUserId: userId,
      at: now,
      diff: { role: { class: "plain", changed: true, hidden: false } },
      before: { role: existing?.role ?? null },
      after: { role: invite.role },
      summaryKey: "member.joined",
      summaryParams: { name: user?.name ?? "", role: invite.role },
      rowVersionAfter: rowVersion,
    });
    await recordAudit(
      tx,
      { type: "user", userId },
      { action: "member.joined", userId, locationId: invite.locationId, params: { member: user?.name ?? "", role: invite.role } },
      now,
    );
    return invite.role;
  });
}
