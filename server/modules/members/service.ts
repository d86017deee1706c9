/**
 * Reads and invite writes of the members domain. Role changes and removals are commands
 * (commands.ts); everything here that acts for a user runs through withActor, so RLS has the
 * last word even if a check here were wrong.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import type { InviteAccepted, InviteCreateBody, InviteCreated, Member, MemberList } from "../../../shared/members.js";
import type { PageQuery } from "../../../shared/paging.js";
import { roleAtLeast, type Role } from "../../../shared/roles.js";
import type { Actor } from "../../auth/actor.js";
import { withActor } from "../../db/actor.js";
import type { Db, Tx } from "../../db/client.js";
import { invites, memberships, users } from "../../db/schema/index.js";
import { ForbiddenError, NotFoundError } from "../../errors/classes.js";
import { locationAccess } from "../../access/location.js";
import { afterTimeId, exactTime, pageFrom } from "../paging.js";
import { acceptInviteForUser, findLiveInvite, INVITE_TTL_MS, inviteFitsEmail, newInviteToken } from "./invites.js";

/**
 * The actor's role in `locationId`, or 404 when it cannot see the location (absent, not a member,
 * hidden behind two-factor or outside a token's scope all read the same).
 */
async function requireRole(tx: Tx, locationId: string): Promise<Role> {
  return (await locationAccess(tx, locationId)).role;
}

async function selectMembers(tx: Tx, locationId: string, only: { userId: string } | PageQuery): Promise<{ rows: Member[]; next_cursor: string | null }> {
  const limit = "limit" in only ? only.limit : 1;
  const found = await tx
    .select({
      userId: memberships.userId,
      displayName: users.name,
      // A managed account's synthetic address is never shown (spec "Managed accounts").
      email: sql<string | null>`CASE WHEN ${users.email} LIKE '%@managed.invalid' THEN NULL ELSE ${users.email} END`,
      role: memberships.role,
      joinedAt: memberships.createdAt,
      rowVersion: memberships.rowVersion,
      key: exactTime(memberships.createdAt),
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.locationId, locationId),
        isNull(memberships.deletedAt),
        "userId" in only ? eq(memberships.userId, only.userId) : undefined,
        "cursor" in only && only.cursor ? afterTimeId(only.cursor, memberships.createdAt, memberships.userId, "asc") : undefined,
      ),
    )
    .orderBy(memberships.createdAt, memberships.userId)
    .limit(limit + 1);
  const page = pageFrom(found, limit, (m) => [m.key, m.userId]);
  return { rows: page.rows.map(({ key: _key, ...m }) => ({ ...m, joinedAt: m.joinedAt.toISOString() })), next_cursor: page.next_cursor };
}

/** A page of the live members of a location the actor belongs to, oldest membership first. */
export async function listMembers(db: Db, actor: Actor, locationId: string, query: PageQuery): Promise<MemberList> {
  return withActor(db, actor, async (tx) => {
    await requireRole(tx, locationId);
    const page = await selectMembers(tx, locationId, query);
    return { items: page.rows, next_cursor: page.next_cursor };
  });
}

/** One live member as the actor sees it (after a role change); 404 when gone or hidden. */
export async function getMember(db: Db, actor: Actor, locationId: string, userId: string): Promise<Member> {
  return withActor(db, actor, async (tx) => {
    await requireRole(tx, locationId);
    const [member] = (await selectMembers(tx, locationId, { userId })).rows;
    if (!member) throw new NotFoundError("member");
    return member;
  });
}

/**
 * Owners and admins invite; the body schema already refuses an owner invite, so an admin can
 * invite up to admin. The token is returned once; only its hash is stored.
 */
export async function createInvite(db: Db, actor: Actor, locationId: string, body: InviteCreateBody): Promise<InviteCreated> {
  return withActor(db, actor, async (tx) => {
    const role = await requireRole(tx, locationId);
    if (!actor.canWrite || !roleAtLeast(role, "admin")) {
      throw new ForbiddenError(`Your role (${role}) cannot invite people here; ask an owner or admin.`, { role, needed: "admin" });
    }
    const { token, tokenHash } = newInviteToken();
    const now = new Date();
    const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
    const id = uuidv7();
    await tx.insert(invites).values({
      id,
      locationId,
      email: body.email?.trim().toLowerCase() ?? null,
      role: body.role,
      tokenHash,
      expiresAt,
      createdBy: actor.userId,
      createdAt: now,
    });
    return { id, token, expiresAt: expiresAt.toISOString() };
  });
}

/**
 * Redeems an invite for the signed-in actor. A dead, used, expired or someone else's invite is
 * one answer, 404, so a token cannot be probed for whom it was made.
 */
export async function acceptInvite(db: Db, actor: Actor, token: string): Promise<InviteAccepted> {
  const invite = await findLiveInvite(db, token);
  if (!invite) throw new NotFoundError("invite");
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, actor.userId));
  if (!user || !inviteFitsEmail(invite, user.email)) throw new NotFoundError("invite");
  const role = await acceptInviteForUser(db, invite, actor.userId);
  if (!role) throw new NotFoundError("invite");
  return { locationId: invite.locationId, role };
}
