/**
 * The signed-in person's own account for its routes: their devices (sessions), a change of sign-in
 * address and the recovery kit. The session and user tables are the auth library's: these read and
 * write them with the service's authority, narrowed to the person's own rows (repository.ts).
 */
import type { PageQuery } from "../../../shared/paging.js";
import type { SessionList } from "../../../shared/sessions.js";
import { reauthenticate, requireFreshAuth, type ReauthDeps } from "../../auth/reauth.js";
import type { Config } from "../../config.js";
import type { Actor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { isSyntheticEmail, type Mailer } from "../../mail/mailer.js";
import { requireSession } from "../../access/role.js";
import { requestEmailChange } from "./email-change.js";
import { deleteOtherSessions, deleteSession, sessionsPage, userIdByEmail, userOf } from "./repository.js";

function sessionOwner(actor: Actor): Actor & { sessionId: string } {
  return requireSession(actor, "Sessions are managed from a signed-in session only.");
}

/** A page of the person's signed-in devices, the caller's marked `current`. */
export async function listSessions(db: Db, actor: Actor, query: PageQuery): Promise<SessionList> {
  const me = sessionOwner(actor);
  const page = await sessionsPage(db, me.userId, query, new Date());
  return {
    next_cursor: page.next_cursor,
    items: page.rows.map((s) => ({
      id: s.id,
      current: s.id === me.sessionId,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: (s.lastSeenAt ?? s.createdAt).toISOString(),
      ip: s.ip || null,
      userAgent: s.userAgent || null,
    })),
  };
}

/** Signs out every device of the person but the caller's; answers how many. */
export async function signOutOthers(db: Db, actor: Actor): Promise<number> {
  const me = sessionOwner(actor);
  return deleteOtherSessions(db, me.userId, me.sessionId);
}

/** Signs one of the person's devices out (404 for anyone else's); answers whether it was the caller's own. */
export async function signOutSession(db: Db, actor: Actor, id: string): Promise<{ wasCurrent: boolean }> {
  const me = sessionOwner(actor);
  if (!(await deleteSession(db, me.userId, id))) throw new NotFoundError("session");
  return { wasCurrent: id === me.sessionId };
}

export type AccountDeps = ReauthDeps & { config: Config; mailer: Mailer };

/**
 * Starts a change of sign-in address, after the password (or a very recent sign-in without one):
 * a link goes to the new address and a notice to the current one (email-change.ts).
 */
export async function changeEmail(deps: AccountDeps, actor: Actor, body: { email: string; password?: string | undefined }, clientIp: string): Promise<string> {
  if (body.password !== undefined) await reauthenticate(deps, actor, body.password, clientIp);
  else await requireFreshAuth(deps, actor);
  const me = await userOf(deps.db, actor.userId);
  if (!me) throw new NotFoundError("user");
  if (isSyntheticEmail(me.email)) throw new ForbiddenError("A managed account signs in with its username and has no email address.");
  const email = body.email.trim().toLowerCase();
  if (isSyntheticEmail(email)) throw new ConflictError("This address cannot be used for your account.");
  if (email === me.email) throw new ValidationError("This is already your sign-in address.");
  if (await userIdByEmail(deps.db, email)) throw new ConflictError("This address cannot be used for your account.");
  // Two mails per request: the per-address mail limit keeps anyone from being mail-bombed.
  await deps.limits.hitMailRequest(email);
  await requestEmailChange(deps, { id: actor.userId, email: me.email }, email);
  return email;
}

/** The recovery kit (needs re-authentication): the sign-in name and the unused backup codes. */
export async function recoveryKit(deps: ReauthDeps & { config: Config }, actor: Actor) {
  await requireFreshAuth(deps, actor);
  const me = await userOf(deps.db, actor.userId);
  if (!me) throw new NotFoundError("user");
  const backupCodes = me.twoFactorEnabled ? (await deps.auth.api.viewBackupCodes({ body: { userId: actor.userId } })).backupCodes : [];
  return {
    account: isSyntheticEmail(me.email) ? (me.username ?? "") : me.email,
    signInUrl: deps.config.publicUrl.origin,
    twoFactorEnabled: me.twoFactorEnabled,
    backupCodes,
    generatedAt: new Date().toISOString(),
  };
}
