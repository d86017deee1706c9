/**
 * POST /api/v1/auth/reset-code: a managed account's person sets their own password with the
 * one-time code (state "one-time code issued" -> "password set by the person"). A wrong username,
 * code or an expired code are one answer. Wrong codes count as sign-in failures of the username;
 * the route also counts against the 30-an-hour redemptions per IP (server/auth/mount.ts).
 */
import { and, eq, gt, isNotNull } from "drizzle-orm";
import type { Auth } from "../../auth/auth.js";
import type { SignInLimits } from "../../auth/limits.js";
import { asSystem } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { authAccounts, managedAccounts, users } from "../../db/schema/index.js";
import { ValidationError } from "../../errors/classes.js";
import { codeMatches, hashCode } from "./codes.js";
import { forgetPassword } from "./repository.js";

export interface RedeemDeps {
  db: Db;
  auth: Auth;
  limits: SignInLimits;
  secret: string;
}

const WRONG = "The username or code is wrong, or the code has expired; ask your admin for a new code.";

export async function redeemCode(deps: RedeemDeps, body: { username: string; code: string; password: string }, ip: string): Promise<void> {
  const { db, limits, secret } = deps;
  const username = body.username.toLowerCase();
  const account = `username:${username}`;
  await limits.checkFailures(account, ip);
  const [row] = await db
    .select({ userId: users.id, codeHash: managedAccounts.codeHash })
    .from(users)
    .innerJoin(managedAccounts, eq(managedAccounts.userId, users.id))
    .where(and(eq(users.username, username), isNotNull(managedAccounts.codeHash), gt(managedAccounts.codeExpiresAt, new Date())));
  const ok = row?.codeHash ? codeMatches(secret, row.userId, body.code, row.codeHash) : (hashCode(secret, "none", body.code), false);
  if (!row || !ok) {
    await limits.recordFailure(account, ip);
    throw new ValidationError(WRONG);
  }
  const hash = await (await deps.auth.$context).password.hash(body.password);
  const spent = await asSystem(db, async (tx) => {
    // Spend the code only if it is still the one checked (two redemptions at once: one wins).
    const cleared = await tx
      .update(managedAccounts)
      .set({ codeHash: null, codeExpiresAt: null, updatedAt: new Date() })
      .where(and(eq(managedAccounts.userId, row.userId), eq(managedAccounts.codeHash, row.codeHash!)))
      .returning({ userId: managedAccounts.userId });
    if (!cleared.length) return false;
    await forgetPassword(tx, row.userId);
    await tx.insert(authAccounts).values({ accountId: row.userId, providerId: "credential", userId: row.userId, password: hash });
    return true;
  });
  if (!spent) throw new ValidationError(WRONG);
  await limits.clearFailures(account, ip);
}
