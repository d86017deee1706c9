/**
 * What an invite token's holder sees before accepting: the location's name, who invited and as
 * what role. No sign-in: the token is the only authority, sent in the body (never in a URL a log
 * or a referrer could keep), and every lookup counts against the per-address limit on token
 * redemptions (server/auth/limits.ts), so tokens cannot be probed. Unknown, used, revoked and
 * expired tokens all answer the same 404.
 */
import { eq } from "drizzle-orm";
import type { InvitePreview } from "../../../shared/members.js";
import { asSystem } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { locations, users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { findLiveInvite } from "./invites.js";

export async function previewInvite(db: Db, token: string): Promise<InvitePreview> {
  const invite = await findLiveInvite(db, token);
  if (!invite) throw new NotFoundError("invite");
  // The holder is not a member yet: the system reads the two names the invite points at.
  return asSystem(db, async (tx) => {
    const [location] = await tx.select({ name: locations.name, deletedAt: locations.deletedAt }).from(locations).where(eq(locations.id, invite.locationId));
    if (!location || location.deletedAt) throw new NotFoundError("invite");
    const [inviter] = invite.createdBy ? await tx.select({ name: users.name }).from(users).where(eq(users.id, invite.createdBy)) : [];
    return {
      locationName: location.name,
      invitedBy: inviter?.name ?? null,
      role: invite.role,
      expiresAt: invite.expiresAt.toISOString(),
      forOneAddress: invite.email !== null,
    };
  });
}
