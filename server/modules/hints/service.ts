/**
 * First-use hints, per person: seen and dismissed, remembered across their devices. Rows are the
 * person's own (RLS on user_hints: user_id = app_user_id()). A person keeps at most
 * MAX_HINTS_PER_USER of them; changing one already kept is always allowed.
 */
import { MAX_HINTS_PER_USER, type Hint, type HintPutBody } from "../../../shared/hints.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { ConflictError } from "../../errors/classes.js";
import { requirePerson } from "../../access/role.js";
import { hintCount, hintsOf, lockHint, saveHint, updateHint } from "./repository.js";

/** Hints belong to a person's session, as everything under /me: never to a token or an MCP grant. */
function personOnly(actor: Actor): Actor {
  return requirePerson(actor, "Hints are kept for a signed-in session only.");
}

export function listHints(db: Db, actor: Actor): Promise<Hint[]> {
  return withActor(db, personOnly(actor), (tx) => hintsOf(tx, actor.userId));
}

/** Sets seen and/or dismissed (true: from now, kept if already set; false: cleared); an absent flag stays as it is. */
export function putHint(db: Db, actor: Actor, key: string, body: HintPutBody): Promise<Hint> {
  return withActor(db, personOnly(actor), async (tx) => {
    const existing = await lockHint(tx, actor.userId, key);
    const now = new Date();
    const stamp = (flag: boolean | undefined, was: Date | null | undefined) => (flag === undefined ? (was ?? null) : flag ? (was ?? now) : null);
    const next = { seenAt: stamp(body.seen, existing?.seenAt), dismissedAt: stamp(body.dismissed, existing?.dismissedAt), updatedAt: now };
    if (existing) return updateHint(tx, actor.userId, key, next);
    if ((await hintCount(tx, actor.userId)) >= MAX_HINTS_PER_USER) {
      throw new ConflictError(`A person keeps at most ${MAX_HINTS_PER_USER} hints.`, { limit: MAX_HINTS_PER_USER });
    }
    return saveHint(tx, actor.userId, key, next);
  });
}
