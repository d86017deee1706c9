/**
 * Instance setup and administration. Setup makes the first user of a fresh instance through the
 * sign-up path (the auth library's signUpEmail, as server/modules/account/signup.ts) and puts them on the
 * instance-admin list, once: as soon as any instance admin exists it refuses. Instance admins then
 * open or close sign-up (the `signup_open` instance setting, read by sign-up) and list the users.
 * instance_admins and instance_settings are not granted to app_role: these run with the service's
 * authority after the checks here.
 */
import type { AdminSettings, AdminUserList, SetupBody } from "../../../shared/admin.js";
import type { PageQuery } from "../../../shared/paging.js";
import { type Actor, asSystem } from "../../db/actor.js";
import type { Auth } from "../../auth/auth.js";
import type { SignInLimits } from "../../auth/limits.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { ConflictError, ForbiddenError } from "../../errors/classes.js";
import { addFirstInstanceAdmin, deleteUser, setSignupOpen, signupOpenSetting, userIdByEmail, usersPage } from "./repository.js";
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
  if (await userIdByEmail(db, email)) throw new ConflictError("This address already has an account here; set up with another address.");
  const created = await auth.api.signUpEmail({ body: { email, password: body.password, name: body.name } });
  const userId = created.user.id;
  const added = await asSystem(db, (tx) => addFirstInstanceAdmin(tx, userId));
  if (!added) {
    // Lost the race: the account just made must not stay behind as a stray.
    await deleteUser(db, userId);
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
  const open = await asSystem(db, (tx) => signupOpenSetting(tx));
  return { signupOpen: open, signupOpenByConfig: config.signupOpen };
}

export async function writeSettings(db: Db, config: Config, patch: { signupOpen: boolean }): Promise<AdminSettings> {
  const value = patch.signupOpen;
  await asSystem(db, (tx) => setSignupOpen(tx, value, new Date()));
  return readSettings(db, config);
}

/** Every user of the instance, oldest first. */
export async function listUsers(db: Db, query: PageQuery): Promise<AdminUserList> {
  return asSystem(db, (tx) => usersPage(tx, query));
}
