/**
 * First-use hints, per person: seen and dismissed, remembered across their devices. Rows are the
 * person's own (RLS on user_hints: user_id = app_user_id()). A person keeps at most
 * MAX_HINTS_PER_USER of them; changing one already kept is always allowed.
 */
import { and, count, eq } from "drizzle-orm";
import { MAX_HINTS_PER_USER, type Hint, type HintPutBody } from "../../../shared/hints.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { userHints } from "../../db/schema/index.js";
import { ConflictError } from "../../errors/classes.js";
import { requirePerson } from "../../access/role.js";

type Row = typeof userHints.$inferSelect;
const out = (r: Row): Hint => ({ key: r.key, seen: r.seenAt !== null, dismissed: r.dismissedAt !== null, updatedAt: r.updatedAt.toISOString() });

/** Hints belong to a person's session, as everything under /me: never to a token or an MCP grant. */
function personOnly(actor: Actor): Actor {
  return requirePerson(actor, "Hints are kept for a signed-in session only.");
}

export function listHints(db: Db, actor: Actor): Promise<Hint[]> {
  return withActor(db, personOnly(actor), async (tx) =>
    (await tx.select().from(userHints).where(eq(userHints.userId, actor.userId)).orderBy(userHints.key)).map(out),
  );
}

/** Sets seen and/or dismissed (true: from now, kept if already set; false: cleared); an absent flag stays as it is. */
export function putHint(db: Db, actor: Actor, key: string, body: HintPutBody): Promise<Hint> {
  return withActor(db, personOnly(actor), async (tx) => {
    const mine = and(eq(userHints.userId, actor.userId), eq(userHints.key, key));
    const [existing] = await tx.select().from(userHints).where(mine).for("update");
    const now = new Date();
    const stamp = (flag: boolean | undefined, was: Date | null | undefined) => (flag === undefined ? (was ?? null) : flag ? (was ?? now) : null);
    const next = { seenAt: stamp(body.seen, existing?.seenAt), dismissedAt: stamp(body.dismissed, existing?.dismissedAt), updatedAt: now };
    if (existing) {
      const [row] = await tx.update(userHints).set(next).where(mine).returning();
      return out(row!);
    }
    const [held] = await tx.select({ n: count() }).from(userHints).where(eq(userHints.userId, actor.userId));
    if ((held?.n ?? 0) >= MAX_HINTS_PER_USER) {
      throw new ConflictError(`A person keeps at most ${MAX_HINTS_PER_USER} hints.`, { limit: MAX_HINTS_PER_USER });
    }
    const [row] = await tx
      .insert(userHints)
      .values({ userId: actor.userId, key, ...next })
      .onConflictDoUpdate({ target: [userHints.userId, userHints.key], set: next })
      .returning();
    return out(row!);
  });
}
