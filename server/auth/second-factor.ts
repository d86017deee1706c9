/**
 * The session two-factor state of the spec ("States and transitions"): a session whose user has
 * two-factor on is pending until a factor is proven in it, whatever way it was signed in with.
 *
 * better-auth's twoFactor plugin only challenges password sign-ins, with a cookie flow of its own
 * (no session until the code is given), and lets magic-link, OAuth and passkey sign-ins through
 * with a full session. We drop that hook (see auth.ts), so every sign-in makes a session, and
 * record the proof on the session row (`mfa_proven_at`) instead. The edge gate
 * (server/http/mfa-gate.ts) then refuses a pending session everywhere but the routes that finish
 * or abandon sign-in.
 */
import type { BetterAuthPlugin } from "better-auth";
import { createAuthMiddleware } from "better-auth/api";
import { and, eq } from "drizzle-orm";
import type { Db } from "../db/client.js";
import { authSessions, authTwoFactors, passkeys } from "../db/schema/index.js";

/** Library routes whose success proves a second factor (an authenticator or backup code). */
export const FACTOR_PROOF_PATHS = new Set(["/two-factor/verify-totp", "/two-factor/verify-backup-code"]);

/** Fails closed: only a user known to have two-factor off, or a session with a recorded proof, passes. */
export function isPending(user: { twoFactorEnabled?: boolean | null | undefined }, session: { mfaProvenAt?: Date | string | null }): boolean {
  return user.twoFactorEnabled !== false && !session.mfaProvenAt;
}

export async function markFactorProven(db: Db, where: { sessionId?: string; token?: string }, at = new Date()): Promise<void> {
  if (where.sessionId) await db.update(authSessions).set({ mfaProvenAt: at }).where(eq(authSessions.id, where.sessionId));
  else if (where.token) await db.update(authSessions).set({ mfaProvenAt: at }).where(eq(authSessions.token, where.token));
}

/** Which second factors the user can finish signing in with. */
async function factorsOf(db: Db, userId: string): Promise<string[]> {
  const [totp] = await db
    .select({ id: authTwoFactors.id })
    .from(authTwoFactors)
    .where(and(eq(authTwoFactors.userId, userId), eq(authTwoFactors.verified, true)));
  const [key] = await db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1);
  return [...(totp ? ["totp", "backup_code"] : []), ...(key ? ["passkey"] : [])];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Error) && !(v instanceof Response);
}

export function secondFactorPlugin(db: Db) {
  return {
    id: "svc-second-factor",
    hooks: {
      after: [
        {
          // A code was accepted: the session that asked (or the one the library just rotated to,
          // when the first code turns two-factor on) is proven from now on.
          matcher: (ctx) => FACTOR_PROOF_PATHS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const returned = ctx.context.returned;
            if (!isPlainObject(returned)) return;
            const fresh = ctx.context.newSession?.session;
            if (fresh) return markFactorProven(db, { sessionId: fresh.id });
            if (typeof returned.token === "string") return markFactorProven(db, { token: returned.token });
          }),
        },
        {
          // Any other way of signing in that made a session for a user with two-factor on: say so
          // in the answer (the library's own client reacts to twoFactorRedirect), the session itself
          // stays pending.
          matcher: (ctx) => !FACTOR_PROOF_PATHS.has(ctx.path ?? ""),
          handler: createAuthMiddleware(async (ctx) => {
            const fresh = ctx.context.newSession;
            const returned = ctx.context.returned;
            if (!fresh || !isPlainObject(returned)) return;
            const proven = (fresh.session as { mfaProvenAt?: Date | null }).mfaProvenAt;
            if (!isPending(fresh.user as { twoFactorEnabled?: boolean }, { mfaProvenAt: proven ?? null })) return;
            return ctx.json({ ...returned, twoFactorRedirect: true, twoFactorMethods: await factorsOf(db, fresh.user.id) });
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
