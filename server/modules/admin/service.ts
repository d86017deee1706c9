/**
 * Instance setup and administration. Setup makes the first user of a fresh instance through the
 * sign-up path (the auth library's signUpEmail, as server/modules/account/signup.ts) and puts them on the
 * instance-admin list, once: as soon as any instance admin exists it refuses. Instance admins then
 * open or close sign-up (the `signup_open` instance setting, read by sign-up) and list the users.
 * instance_admins and instance_settings are not granted to app_role: these run with the service's
 * authority after the checks here.
 */
import { eq, sql } from "drizzle-orm";
import type { AdminSettings, AdminUserList, SetupBody } from "../../../shared/admin.js";
import type { PageQuery } from "../../../shared/paging.js";
import { type Actor, asSystem } from "../../db/actor.js";
import type { Auth } from "../../auth/auth.js";
import type { SignInLimits } from "../../auth/limits.js";
import type { Config } from "../../config.js";
import { rows, type Db } from "../../db/client.js";
import { instanceAdmins, instanceSettings, users } from "../../db/schema/index.js";
import { ConflictError, ForbiddenError } from "../../errors/classes.js";
import { timeIdPaging } from "../../db/paging.js";
import { forgetSetupCodes, isInstanceAdmin, needsSetup, type SetupCode } from "./setup-code.js";
import { requirePerson } from "../../access/role.js";

export interface AdminDeps {
  db: Db;
  config: Config;
  auth: Auth;
  limits: SignInLimits;
  setup: SetupCode;
}

const ALREADY = "This instance is already set up: sign in, or ask an instance admin.";
/** Wrong codes count as failures of one pseudo-account per address: growing delays, as for sign-in. */
const SETUP_ACCOUNT = "instance-setup";

/** One setup at a time in this process (two at once with the right code: one wins). */
let running: Promise<unknown> = Promise.resolve();

export async function runSetup(deps: AdminDeps, body: SetupBody, ip: string): Promise<{ status: "ready"; userId: string }> {
  const { db, limits } = deps;
  await limits.hitRedemption(ip);
  await limits.checkFailures(SETUP_ACCOUNT, ip);
  if (!(await needsSetup(db))) throw new ConflictError(ALREADY);
  if (!(await deps.setup.matchesAnyReplica(db, body.code))) {
    await limits.recordFailure(SETUP_ACCOUNT, ip);
    throw new ForbiddenError("The setup code is wrong: use the setup URL the server printed when it started.");
  }
  const turn = running.then(() => createFirstAdmin(deps, body));
  running = turn.catch(() => undefined);
  const userId = await turn;
  await forgetSetupCodes(db);
  await limits.clearFailures(SETUP_ACCOUNT, ip);
  return { status: "ready", userId };
}

async function createFirstAdmin({ db, auth }: AdminDeps, body: SetupBody): Promise<string> {
  if (!(await needsSetup(db))) throw new ConflictError(ALREADY);
  const email = body.email.trim().toLowerCase();
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (taken) throw new ConflictError("This address already has an account here; set up with another address.");
  const created = await auth.api.signUpEmail({ body: { email, password: body.password, name: body.name } });
  const userId = created.user.id;
  const added = await asSystem(db, async (tx) => {
    // Another replica may be setting up too: the list is locked while it is checked and filled.
    await tx.execute(sql`LOCK TABLE instance_admins IN SHARE ROW EXCLUSIVE MODE`);
    return rows<{ user_id: string }>(
      tx,
      sql`INSERT INTO instance_admins (user_id) SELECT ${userId} WHERE NOT EXISTS (SELECT 1 FROM instance_admins) RETURNING user_id`,
    );
  });
  if (!added.length) {
    // Lost the race: the account just made must not stay behind as a stray.
    await db.delete(users).where(eq(users.id, userId));
    throw new ConflictError(ALREADY);
  }
  return userId;
}

/** Instance admins only, from a signed-in session (never a token or an MCP grant). */
export async function requireInstanceAdmin(db: Db, actor: Actor): Promise<void> {
  requirePerson(actor, "Instance administration needs a signed-in session.");
  if (!(await isInstanceAdmin(db, actor.userId))) throw new ForbiddenError("Only instance admins can do this.");
}

export async function readSettings(db: Db, config: Config): Promise<AdminSettings> {
  // Compared in SQL, as sign-up does: only the JSON value true opens sign-up.
  const [row] = await asSystem(db, (tx) =>
    tx
      .select({ open: sql<boolean>`${instanceSettings.value} = 'true'::jsonb` })
      .from(instanceSettings)
      .where(eq(instanceSettings.key, "signup_open")),
  );
  return { signupOpen: row?.open === true, signupOpenByConfig: config.signupOpen };
}

export async function writeSettings(db: Db, config: Config, patch: { signupOpen: boolean }): Promise<AdminSettings> {
  const value = patch.signupOpen;
  await asSystem(db, (tx) =>
    tx
      .insert(instanceSettings)
      .values({ key: "signup_open", value, updatedAt: new Date() })
      .onConflictDoUpdate({ target: instanceSettings.key, set: { value, updatedAt: new Date() } }),
  );
  return readSettings(db, config);
}

/** Every user of the instance, oldest first. */
export async function listUsers(db: Db, query: PageQuery): Promise<AdminUserList> {
  const paging = timeIdPaging(users.createdAt, users.id, query, "asc");
  const found = await asSystem(db, (tx) =>
    tx
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
      .limit(paging.limit),
  );
  const page = paging.page(found, (u) => u.id);
  return {
    items: page.rows.map(({ key: _key, createdAt, ...u }) => ({ ...u, createdAt: createdAt.toISOString() })),
    next_cursor: page.next_cursor,
  };
}
