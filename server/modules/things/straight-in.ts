/**
 * "My own captures go straight in" (issue 19, point 7): where the capturing person has turned it
 * on for the location (capture_settings, per person and location), their capture is accepted as it
 * arrives, by the same inbox.accept a reviewer would run: the draft becomes active with its
 * `thing.accepted` history entry, the item is resolved as accepted (undoable from the thing's
 * history like any accept), and the duplicate check runs. The setting is read when the op arrives,
 * not when it was made, so a capture made offline and pushed later follows the setting as it is.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { CommandContext, Op, Verdict } from "../../commands/types.js";
import { captureSettings } from "../../db/schema/index.js";
import { inboxAccept } from "../inbox/commands.js";

/** Locations (of `locationIds`) where the actor's own captures go straight in. */
export async function straightInLocations(ctx: CommandContext, locationIds: string[]): Promise<Set<string>> {
  if (!locationIds.length) return new Set();
  const rows = await ctx.tx
    .select({ locationId: captureSettings.locationId })
    .from(captureSettings)
    .where(and(eq(captureSettings.userId, ctx.actor.userId), inArray(captureSettings.locationId, locationIds), eq(captureSettings.straightIn, true)));
  return new Set(rows.map((r) => r.locationId));
}

/**
 * Accepts the captured drafts (item id = thing id) of `captured` that go straight in; answers the
 * ids accepted. Each accept is the reviewer's own command, so it is checked as a single accept is.
 */
export async function acceptStraightIn(ctx: CommandContext, captured: Op<{ id: string }>[]): Promise<Set<string>> {
  const where = await straightInLocations(ctx, [...new Set(captured.map((o) => o.input.locationId))]);
  const ops = captured
    .filter((o) => where.has(o.input.locationId))
    // A review checks no version: the item was made a moment ago, in this transaction.
    .map(({ input: { baseVersion: _seen, ...input }, args }) => ({
      input: { ...input, name: inboxAccept.name, args: { id: args.id } },
      args: { id: args.id },
    }));
  if (!ops.length) return new Set();
  const verdicts: Verdict[] = await inboxAccept.run(ctx, ops);
  return new Set(ops.filter((_, i) => verdicts[i]?.status === "applied").map((o) => o.args.id));
}
