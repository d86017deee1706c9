/**
 * The members domain for routes: listing, role changes and removals (commands, each one actor
 * transaction with its read-back), and invites. Invites are written here, outside the command
 * path, on purpose: an invite is no synced row and has no history, and accepting one adds a
 * membership for someone who is not yet a member (asSystem in invites.ts). Everything that acts
 * for a user runs through withActor, so RLS has the last word even if a check here were wrong.
 */
import { v7 as uuidv7 } from "uuid";
import type { InviteAccepted, InviteCreateBody, InviteCreated, Member, MemberList, MemberPatchBody, MemberRemoved } from "../../../shared/members.js";
import type { PageQuery } from "../../../shared/paging.js";
import { type Role } from "../../../shared/roles.js";
import { locationAccess } from "../../access/location.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Tx } from "../../db/client.js";
import { NotFoundError } from "../../errors/classes.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { writeOne } from "../write.js";
import { emailOf, findMember, locationName, selectMembers } from "./read.js";
import { mailInvite, type InviteMailDeps } from "./invite-mail.js";
import { acceptInviteForUser, findLiveInvite, insertInvite, INVITE_TTL_MS, inviteFitsEmail, newInviteToken } from "./invites.js";
import { requirePerson, requireWriteRole } from "../../access/role.js";

/**
 * The actor's role in `locationId`, or 404 when it cannot see the location (absent, not a member,
 * hidden behind two-factor or outside a token's scope all read the same).
 */
async function requireRole(tx: Tx, locationId: string): Promise<Role> {
  return (await locationAccess(tx, locationId)).role;
}

/** A page of the live members of a location the actor belongs to, oldest membership first. */
export async function listMembers({ db }: ServiceDeps, actor: Actor, locationId: string, query: PageQuery): Promise<MemberList> {
  return withActor(db, personOnly(actor), async (tx) => {
    await requireRole(tx, locationId);
    const page = await selectMembers(tx, locationId, query);
    return { items: page.rows, next_cursor: page.next_cursor };
  });
}

/** Members and invites are a person's business: never a token's or an MCP grant's. */
function personOnly(actor: Actor): Actor {
  return requirePerson(actor, "Members and invites are managed from a signed-in session only.");
}

/** Changes a member's role in one transaction: member.update, then the member as it is now. */
export function updateMember(deps: ServiceDeps, actor: Actor, locationId: string, userId: string, body: MemberPatchBody): Promise<Written<Member>> {
  return writeOne(
    deps,
    personOnly(actor),
    () => ({
      name: "member.update",
      locationId,
      args: { userId, role: body.role },
      ...(body.rowVersion !== undefined ? { baseVersion: body.rowVersion } : {}),
    }),
    async (tx) => {
      await requireRole(tx, locationId);
      return findMember(tx, locationId, userId);
    },
  );
}

/** Removes a member, or the actor leaves; MemberRemoved (shared/members.ts) carries the txid in its body too. */
export function removeMember(deps: ServiceDeps, actor: Actor, locationId: string, userId: string): Promise<Written<MemberRemoved>> {
  return writeOne(
    deps,
    personOnly(actor),
    () => ({ name: "member.remove", locationId, args: { userId } }),
    async (_tx, v) => ({ ok: true as const, txid: v.txid }),
  );
}

/**
 * Owners and admins invite; the body schema already refuses an owner invite, so an admin can
 * invite up to admin. The token is returned once; only its hash is stored. An invite that names an
 * address is mailed to it after the commit (invite-mail.ts).
 */
export async function createInvite(
  { db }: ServiceDeps,
  mail: InviteMailDeps,
  actor: Actor,
  locationId: string,
  body: InviteCreateBody,
): Promise<InviteCreated> {
  const made = await withActor(db, personOnly(actor), async (tx) => {
    const role = await requireRole(tx, locationId);
    requireWriteRole(actor, role, "admin", `Your role (${role}) cannot invite people here; ask an owner or admin.`, { role, needed: "admin" });
    const { token, tokenHash } = newInviteToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
    const id = uuidv7();
    const email = body.email?.trim().toLowerCase() ?? null;
    await insertInvite(tx, { id, locationId, email, role: body.role, tokenHash, expiresAt, createdBy: actor.userId, createdAt: now });
    return { id, token, expiresAt, email, locationName: await locationName(tx, locationId) };
  });
  const mailed = made.email
    ? await mailInvite(mail, { to: made.email, token: made.token, locationName: made.locationName, inviterName: actor.displayName, role: body.role })
    : false;
  return { id: made.id, token: made.token, expiresAt: made.expiresAt.toISOString(), mailed };
}

/**
 * Redeems an invite for the signed-in actor. A dead, used, expired or someone else's invite is
 * one answer, 404, so a token cannot be probed for whom it was made.
 */
export async function acceptInvite({ db }: ServiceDeps, actor: Actor, token: string): Promise<InviteAccepted> {
  personOnly(actor);
  const invite = await findLiveInvite(db, token);
  if (!invite) throw new NotFoundError("invite");
  const email = await emailOf(db, actor.userId);
  if (email === null || !inviteFitsEmail(invite, email)) throw new NotFoundError("invite");
  const role = await acceptInviteForUser(db, invite, actor.userId);
  if (!role) throw new NotFoundError("invite");
  return { locationId: invite.locationId, role };
}
