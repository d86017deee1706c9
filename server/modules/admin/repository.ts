/**
 * The SQL of instance administration: the instance-admin list, the sign-up setting and the user
 * list. instance_admins and instance_settings are not granted to app_role: the service runs these
 * with its own authority, after its checks.
 */
import { eq, sql } from "drizzle-orm";
import type { AdminUserList } from "../../../shared/admin.js";
import type { PageQuery } from "../../../shared/paging.js";
import { rows, type Queryable, type Tx } from "../../db/client.js";
import { timeIdPaging } from "../../db/paging.js";
import { instanceAdmins, instanceSettings, users } from "../../db/schema/index.js";

/** The id of the user who signs in with this address, or null. */
export async function userIdByEmail(q: Queryable, email: string): Promise<string | null> {
  const [taken] = await q.select({ id: users.id }).from(users).where(eq(users.email, email));
  return taken?.id ?? null;
}

export async function deleteUser(q: Queryable, userId: string): Promise<void> {
  await q.delete(users).where(eq(users.id, userId));
}

/**
 * Puts the user on the instance-admin list if the list is empty; false when someone is on it
 * already. The list is locked while it is checked and filled: another replica may be setting up too.
 */
export async function addFirstInstanceAdmin(tx: Tx, userId: string): Promise<boolean> {
  await tx.execute(sql`LOCK TABLE instance_admins IN SHARE ROW EXCLUSIVE MODE`);
  const added = await rows<{ user_id: string }>(
    tx,
    sql`INSERT INTO instance_admins (user_id) SELECT ${userId} WHERE NOT EXISTS (SELECT 1 FROM instance_admins) RETURNING user_id`,
  );
  return added.length > 0;
}

/** Whether the instance setting opens sign-up. Compared in SQL, as sign-up does: only the JSON value true opens it. */
export async function signupOpenSetting(tx: Tx): Promise<boolean> {
  const [row] = await tx
    .select({ open: sql<boolean>`${instanceSettings.value} = 'true'::jsonb` })
    .from(instanceSettings)
    .where(eq(instanceSettings.key, "signup_open"));
  return row?.open === true;
}

export async function setSignupOpen(tx: Tx, value: boolean, now: Date): Promise<void> {
  await tx
    .insert(instanceSettings)
    .values({ key: "signup_open", value, updatedAt: now })
    .onConflictDoUpdate({ target: instanceSettings.key, set: { value, updatedAt: now } });
}

/** A page of every user of the instance, oldest first; a managed account's synthetic address is never shown. */
export async function usersPage(tx: Tx, query: PageQuery): Promise<AdminUserList> {
  const paging = timeIdPaging(users.createdAt, users.id, query, "asc");
  const found = await tx
    .select({
      id: users.id,
      name: users.name,
      email: sql<string | null>`CASE WHEN ${users.email} LIKE '%@managed.invalid' THEN NULL ELSE ${users.email} END`,
      username: users.username,
      instanceAdmin: sql<boolean>`${instanceAdmins.userId} IS NOT NULL`,
      createdAt: users.createdAt,
      key: paging.key,
    })
    .from(users)
    .leftJoin(instanceAdmins, eq(instanceAdmins.userId, users.id))
    .where(paging.after)
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  const page = paging.page(found, (u) => u.id);
  return {
    items: page.rows.map(({ key: _key, createdAt, ...u }) => ({ ...u, createdAt: createdAt.toISOString() })),
    next_cursor: page.next_cursor,
  };
}
