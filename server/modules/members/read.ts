/** Reads of members: a page of a location's live members, or one of them; what an invite names. */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Member } from "../../../shared/members.js";
import type { PageQuery } from "../../../shared/paging.js";
import type { Queryable, Tx } from "../../db/client.js";
import { locations, memberships, users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { timeIdPaging } from "../../db/paging.js";

export async function selectMembers(tx: Tx, locationId: string, only: { userId: string } | PageQuery): Promise<{ rows: Member[]; next_cursor: string | null }> {
  // One member by id reads as a page of one, oldest first by when they joined.
  const paging = timeIdPaging(memberships.createdAt, memberships.userId, "limit" in only ? only : { limit: 1 }, "asc");
  const found = await tx
    .select({
      userId: memberships.userId,
      displayName: users.name,
      // A managed account's synthetic address is never shown (spec "Managed accounts").
      email: sql<string | null>`CASE WHEN ${users.email} LIKE '%@managed.invalid' THEN NULL ELSE ${users.email} END`,
      role: memberships.role,
      joinedAt: memberships.createdAt,
      rowVersion: memberships.rowVersion,
      key: paging.key,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.locationId, locationId),
        isNull(memberships.deletedAt),
        "userId" in only ? eq(memberships.userId, only.userId) : undefined,
        paging.after,
      ),
    )
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  const page = paging.page(found, (m) => m.userId);
  return { rows: page.rows.map(({ key: _key, ...m }) => ({ ...m, joinedAt: m.joinedAt.toISOString() })), next_cursor: page.next_cursor };
}

/** One live member of a location (the caller has checked the location is visible); 404 when gone. */
export async function findMember(tx: Tx, locationId: string, userId: string): Promise<Member> {
  const [member] = (await selectMembers(tx, locationId, { userId })).rows;
  if (!member) throw new NotFoundError("member");
  return member;
}

/** A location's name, as an invite mail names it (empty when the actor cannot read it). */
export async function locationName(tx: Tx, locationId: string): Promise<string> {
  const [location] = await tx.select({ name: locations.name }).from(locations).where(eq(locations.id, locationId));
  return location?.name ?? "";
}

/** A user's sign-in address, or null when the user is gone. */
export async function emailOf(q: Queryable, userId: string): Promise<string | null> {
  const [user] = await q.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user?.email ?? null;
}
