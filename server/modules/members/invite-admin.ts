/**
 * Invitations as owners and admins manage them: the list (newest first, never a token), revoking
 * one (revokedAt: it can no longer be accepted, server/modules/members/invites.ts findLiveInvite)
 * and resending one. Only a token's hash is kept, so a resend gives the invite a new token and a
 * new 7-day expiry (the old link stops working), mails the link when the invite names an address,
 * and answers the token for the admin to hand over. RLS (invites_admin) limits every statement to
 * the actor's admin locations as well.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Invite, InviteList, InviteResent } from "../../../shared/members.js";
import type { PageQuery } from "../../../shared/paging.js";
import { locationAccess } from "../../access/location.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Tx } from "../../db/client.js";
import { invites, locations, users } from "../../db/schema/index.js";
import { ConflictError, NotFoundError } from "../../errors/classes.js";
import type { ServiceDeps } from "../deps.js";
import { timeIdPaging } from "../../db/paging.js";
import { mailInvite, type InviteMailDeps } from "./invite-mail.js";
import { INVITE_TTL_MS, newInviteToken } from "./invites.js";
import { requirePerson, requireWriteRole } from "../../access/role.js";

type InviteRow = typeof invites.$inferSelect;

function statusOf(r: Pick<InviteRow, "acceptedAt" | "revokedAt" | "expiresAt">, now: Date): Invite["status"] {
  if (r.acceptedAt) return "accepted";
  if (r.revokedAt) return "revoked";
  return r.expiresAt <= now ? "expired" : "pending";
}

function personOnly(actor: Actor): Actor {
  return requirePerson(actor, "Members and invites are managed from a signed-in session only.");
}

/** Owner or admin of a location the actor sees (404 when it does not see it). */
async function requireAdmin(tx: Tx, actor: Actor, locationId: string): Promise<void> {
  const { role } = await locationAccess(tx, locationId);
  requireWriteRole(actor, role, "admin", `Your role (${role}) cannot manage invitations here; ask an owner or admin.`, { role, needed: "admin" });
}

export async function listInvites({ db }: ServiceDeps, actor: Actor, locationId: string, query: PageQuery): Promise<InviteList> {
  return withActor(db, personOnly(actor), async (tx) => {
    await requireAdmin(tx, actor, locationId);
    const paging = timeIdPaging(invites.createdAt, invites.id, query);
    const found = await tx
      .select({ invite: invites, createdByName: users.name, key: paging.key })
      .from(invites)
      .leftJoin(users, eq(users.id, invites.createdBy))
      .where(and(eq(invites.locationId, locationId), paging.after))
      .orderBy(...paging.orderBy)
      .limit(paging.limit);
    const page = paging.page(found, (r) => r.invite.id);
    const now = new Date();
    return {
      items: page.rows.map(({ invite: i, createdByName }) => ({
        id: i.id,
        email: i.email,
        role: i.role,
        status: statusOf(i, now),
        createdAt: i.createdAt.toISOString(),
        expiresAt: i.expiresAt.toISOString(),
        createdByName: createdByName ?? null,
      })),
      next_cursor: page.next_cursor,
    };
  });
}

/** The invite, locked, after the admin check of its location; 404 when the actor cannot manage it. */
async function lockInvite(tx: Tx, actor: Actor, id: string): Promise<InviteRow> {
  // RLS shows only invites of the actor's admin locations: anyone else's is simply not found.
  const [row] = await tx.select().from(invites).where(eq(invites.id, id)).for("update");
  if (!row) throw new NotFoundError("invite");
  await requireAdmin(tx, actor, row.locationId);
  return row;
}

/** Revokes an invite that was not used yet; revoking it again changes nothing. */
export async function revokeInvite({ db }: ServiceDeps, actor: Actor, id: string): Promise<Invite> {
  return withActor(db, personOnly(actor), async (tx) => {
    const row = await lockInvite(tx, actor, id);
    if (row.acceptedAt) throw new ConflictError("This invitation was already accepted: remove the member instead.");
    const now = new Date();
    const revokedAt = row.revokedAt ?? now;
    if (!row.revokedAt)
      await tx
        .update(invites)
        .set({ revokedAt })
        .where(and(eq(invites.id, id), isNull(invites.revokedAt)));
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      status: "revoked",
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt.toISOString(),
      createdByName: null,
    };
  });
}

/**
 * A new token and expiry for an invite not yet accepted or revoked (an expired one comes back to
 * life: that is what resending is for). The mail, when the invite names an address, goes out after
 * the commit; a mail that fails is logged by the caller's mailer and the token is still answered.
 */
export async function resendInvite({ db }: ServiceDeps, mail: InviteMailDeps, actor: Actor, id: string): Promise<InviteResent> {
  const { row, token, expiresAt, locationName } = await withActor(db, personOnly(actor), async (tx) => {
    const row = await lockInvite(tx, actor, id);
    if (row.acceptedAt) throw new ConflictError("This invitation was already accepted.");
    if (row.revokedAt) throw new ConflictError("This invitation was revoked: make a new one.");
    const { token, tokenHash } = newInviteToken();
    const expiresAt = new Date(Date.now() + INVITE_TTL_MS);
    await tx.update(invites).set({ tokenHash, expiresAt }).where(eq(invites.id, id));
    const [location] = await tx.select({ name: locations.name }).from(locations).where(eq(locations.id, row.locationId));
    return { row, token, expiresAt, locationName: location?.name ?? "" };
  });
  const mailed = row.email ? await mailInvite(mail, { to: row.email, token, locationName, inviterName: actor.displayName, role: row.role }) : false;
  return { id: row.id, token, expiresAt: expiresAt.toISOString(), mailed };
}
