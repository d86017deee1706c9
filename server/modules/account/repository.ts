/**
 * The SQL of the signed-in person's own account: their user row, their sessions (never the token
 * column), their pending email change (the auth library's verification table) and the sign-up
 * setting. These tables are the auth library's, not app_role's: the account's service and flows run
 * these on the database with the service's authority, always narrowed to the person's own rows.
 */
import { and, eq, gt, like, lt, ne, sql } from "drizzle-orm";
import type { PageQuery } from "../../../shared/paging.js";
import type { Db, Queryable } from "../../db/client.js";
import { timeIdPaging } from "../../db/paging.js";
import { authSessions, authVerifications, instanceSettings, users } from "../../db/schema/index.js";

/** The id of the user who signs in with this address, or null. */
export async function userIdByEmail(q: Queryable, email: string): Promise<string | null> {
  const [taken] = await q.select({ id: users.id }).from(users).where(eq(users.email, email));
  return taken?.id ?? null;
}

/** What the person's own account routes read of their user row; null when it is gone. */
export async function userOf(q: Queryable, userId: string): Promise<{ email: string; username: string | null; twoFactorEnabled: boolean } | null> {
  const [me] = await q
    .select({ email: users.email, username: users.username, twoFactorEnabled: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, userId));
  return me ?? null;
}

/** Makes `email` the user's sign-in address, proven. */
export async function setProvenEmail(q: Queryable, userId: string, email: string, now: Date): Promise<void> {
  await q.update(users).set({ email, emailVerified: true, updatedAt: now }).where(eq(users.id, userId));
}

/**
 * Whether the `signup_open` instance setting opens sign-up. Compared in SQL: drizzle's jsonb column
 * re-parses a stored JSON string, so the string "true" would read back as the boolean true. Only the
 * JSON value true opens sign-up.
 */
export async function signupOpenSetting(q: Queryable): Promise<boolean> {
  const [row] = await q
    .select({ open: sql<boolean>`${instanceSettings.value} = 'true'::jsonb` })
    .from(instanceSettings)
    .where(eq(instanceSettings.key, "signup_open"));
  return row?.open === true;
}

/** A page of the user's live sessions, newest first. */
export async function sessionsPage(q: Queryable, userId: string, query: PageQuery, now: Date) {
  const paging = timeIdPaging(authSessions.createdAt, authSessions.id, query);
  const found = await q
    .select({
      id: authSessions.id,
      createdAt: authSessions.createdAt,
      lastSeenAt: authSessions.lastSeenAt,
      ip: authSessions.ipAddress,
      userAgent: authSessions.userAgent,
      key: paging.key,
    })
    .from(authSessions)
    .where(and(eq(authSessions.userId, userId), gt(authSessions.expiresAt, now), paging.after))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  return paging.page(found, (s) => s.id);
}

/** Deletes every session of the user but `keepId`; answers how many went. */
export async function deleteOtherSessions(q: Queryable, userId: string, keepId: string): Promise<number> {
  const gone = await q
    .delete(authSessions)
    .where(and(eq(authSessions.userId, userId), ne(authSessions.id, keepId)))
    .returning({ id: authSessions.id });
  return gone.length;
}

/** Deletes one of the user's sessions; false when they have none with this id. */
export async function deleteSession(q: Queryable, userId: string, id: string): Promise<boolean> {
  const gone = await q
    .delete(authSessions)
    .where(and(eq(authSessions.id, id), eq(authSessions.userId, userId)))
    .returning({ id: authSessions.id });
  return gone.length > 0;
}

/**
 * Stores a pending email change under `identifier` in place of the user's earlier one (found by
 * the prefix its value starts with), and drops expired ones of every user.
 */
export async function replacePendingChange(
  db: Db,
  change: { prefix: string; valuePrefix: string; identifier: string; value: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(authVerifications).where(and(like(authVerifications.identifier, `${change.prefix}%`), like(authVerifications.value, change.valuePrefix)));
    await tx.delete(authVerifications).where(and(like(authVerifications.identifier, `${change.prefix}%`), lt(authVerifications.expiresAt, now)));
    await tx.insert(authVerifications).values({ identifier: change.identifier, value: change.value, expiresAt: change.expiresAt });
  });
}

/** Spends a pending change: deletes it and answers what it held, or null when there is none. */
export async function takePendingChange(q: Queryable, identifier: string): Promise<{ value: string; expiresAt: Date } | null> {
  const [row] = await q
    .delete(authVerifications)
    .where(eq(authVerifications.identifier, identifier))
    .returning({ value: authVerifications.value, expiresAt: authVerifications.expiresAt });
  return row ?? null;
}
