/**
 * Re-authentication (spec "Second factors" 4): changing the sign-in email and downloading the
 * recovery kit need the password again, a passkey that verified the person on this session, or,
 * for an account without a password, a sign-in within the last few minutes; otherwise 403
 * reauth_required. The password may come with the request
 * (POST /me/email) or just before it (POST /me/reauthenticate, which a GET download cannot
 * carry): either stamps the session for REAUTH_WINDOW_MS. Wrong passwords count as sign-in
 * failures of the account.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Actor } from "../db/actor.js";
import type { Auth } from "./auth.js";
import type { Db } from "../db/client.js";
import { authAccounts, authSessions } from "../db/schema/index.js";
import { ForbiddenError, ReauthRequiredError } from "../errors/classes.js";
import type { SignInLimits } from "./limits.js";

import { REAUTH_WINDOW_MS, stampReauthenticated } from "./reauth-stamp.js";

export { REAUTH_WINDOW_MS };

export async function passwordHash(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ password: authAccounts.password })
    .from(authAccounts)
    .where(and(eq(authAccounts.userId, userId), eq(authAccounts.providerId, "credential"), isNotNull(authAccounts.password)));
  return row?.password ?? null;
}

export interface ReauthDeps {
  db: Db;
  auth: Auth;
  limits: SignInLimits;
}

function signedInActor(actor: Actor): Actor & { sessionId: string } {
  if (actor.type !== "user" || !actor.sessionId) throw new ForbiddenError("Only a signed-in person can do this.");
  return actor as Actor & { sessionId: string };
}

/** Checks the password again and stamps the session; 403 reauth_required when it is wrong. */
export async function reauthenticate(deps: ReauthDeps, actor: Actor, password: string, ip: string, now = new Date()): Promise<Date> {
  const me = signedInActor(actor);
  const account = `user:${me.userId}`;
  await deps.limits.checkFailures(account, ip);
  const ctx = await deps.auth.$context;
  const hash = await passwordHash(deps.db, me.userId);
  const ok = hash !== null && (await ctx.password.verify({ hash, password }));
  if (!ok) {
    if (hash === null) await ctx.password.hash(password); // as slow as a real check
    await deps.limits.recordFailure(account, ip);
    throw new ReauthRequiredError();
  }
  await deps.limits.clearFailures(account, ip);
  return stampReauthenticated(deps.db, me.sessionId, now);
}

/** Passes when this session re-authenticated lately, or (no password) signed in lately. */
export async function requireFreshAuth(deps: ReauthDeps, actor: Actor, now = new Date()): Promise<void> {
  const me = signedInActor(actor);
  const [session] = await deps.db
    .select({ createdAt: authSessions.createdAt, reauthenticatedAt: authSessions.reauthenticatedAt })
    .from(authSessions)
    .where(eq(authSessions.id, me.sessionId));
  if (!session) throw new ReauthRequiredError();
  const recent = (at: Date | null) => at !== null && now.getTime() - at.getTime() < REAUTH_WINDOW_MS;
  if (recent(session.reauthenticatedAt)) return;
  if (recent(session.createdAt) && (await passwordHash(deps.db, me.userId)) === null) return;
  throw new ReauthRequiredError();
}
