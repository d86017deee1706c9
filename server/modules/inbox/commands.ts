/**
 * Review actions on inbox items: accept (a draft becomes an active thing), dismiss (a draft is
 * discarded, undoably), merge (a draft folds into an existing thing). Each marks the item resolved,
 * so it leaves the inbox shape.
 */
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { inboxActArgs, inboxMergeArgs, type InboxActArgs, type InboxMergeArgs } from "../../../shared/inbox-actions.js";
import { bulkInsert } from "../../commands/bulk.js";
import { historyRow } from "../../commands/history.js";
import { applied, defineCommand, rejected, type CommandContext, type Verdict } from "../../commands/types.js";
import { historyEntries, inboxItems, things } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { readValues, writeValues, type ThingRow } from "../things/values.js";

type Item = typeof inboxItems.$inferSelect;
type Status = Item["status"];

async function openItem(ctx: CommandContext, id: string, locationId: string): Promise<Item | Error> {
  const [item] = await ctx.tx.select().from(inboxItems).where(eq(inboxItems.id, id)).for("update");
  if (!item || item.locationId !== locationId || item.deletedAt) return new NotFoundError("inbox item");
  if (item.status !== "open") return new ConflictError(`This item was already reviewed (${item.status}).`);
  return item;
}

async function liveThing(ctx: CommandContext, id: string | null, locationId: string): Promise<ThingRow | null> {
  if (!id) return null;
  const [t] = await ctx.tx.select().from(things).where(eq(things.id, id)).for("update");
  return t && t.locationId === locationId && !t.deletedAt ? t : null;
}

/** Writes `values` into a thing with one history entry; returns the new row. */
async function changeThing(
  ctx: CommandContext,
  t: ThingRow,
  values: Record<string, unknown>,
  action: string,
  summaryKey: string,
  params: Record<string, string> = {},
) {
  const keys = Object.keys(values);
  const next = { ...writeValues(t, values), rowVersion: t.rowVersion + 1, updatedAt: ctx.now };
  await ctx.tx.update(things).set(next).where(eq(things.id, t.id));
  const h = historyRow(ctx, {
    locationId: t.locationId,
    entityType: "thing",
    entityId: t.id,
    entityName: next.name,
    action,
    before: readValues(t, keys),
    after: readValues(next, keys),
    summaryKey,
    summaryParams: { name: next.name ?? "", ...params },
    rowVersionAfter: next.rowVersion,
    undoable: true,
  });
  await bulkInsert(ctx.tx, historyEntries, [h]);
  return { next, eventId: h.id };
}

async function resolve(
  ctx: CommandContext,
  item: Item,
  status: Status,
  payload: Record<string, unknown> = {},
  undoEventId: string | null = null,
): Promise<Verdict> {
  const rowVersion = item.rowVersion + 1;
  await ctx.tx
    .update(inboxItems)
    .set({ status, resolvedAt: ctx.now, resolvedBy: ctx.actor.userId, rowVersion, updatedAt: ctx.now, payload: { ...item.payload, ...payload }, undoEventId })
    .where(eq(inboxItems.id, item.id));
  return applied(ctx, item.id, rowVersion, undoEventId);
}

/**
 * A review command: each op's item must be open in the op's location; `review` does the work and
 * answers the verdict. Review actions are few, so they run op by op.
 */
function reviewCommand<A extends { id: string }>(
  name: string,
  args: z.ZodType<A>,
  review: (ctx: CommandContext, item: Item, args: A, locationId: string) => Promise<Verdict>,
  refs?: (a: A) => (string | null | undefined)[],
) {
  return defineCommand<A>({
    name,
    args,
    minRole: "member",
    target: (a) => a.id,
    ...(refs ? { refs } : {}),
    async run(ctx, ops) {
      const out: Verdict[] = [];
      for (const { args: a, input } of ops) {
        const item = await openItem(ctx, a.id, input.locationId);
        out.push(item instanceof Error ? rejected(item as NotFoundError) : await review(ctx, item, a, input.locationId));
      }
      return out;
    },
  });
}

export const inboxAccept = reviewCommand<InboxActArgs>("inbox.accept", inboxActArgs, async (ctx, item, _args, loc) => {
  const t = await liveThing(ctx, item.thingId, loc);
  let eventId: string | null = null;
  if (t?.lifecycle === "draft") eventId = (await changeThing(ctx, t, { lifecycle: "active" }, "thing.updated", "thing.accepted")).eventId;
  return resolve(ctx, item, "accepted", {}, eventId);
});

export const inboxDismiss = reviewCommand<InboxActArgs>("inbox.dismiss", inboxActArgs, async (ctx, item, _args, loc) => {
  // A dismissed draft is discarded as a tombstone, undoable from its history like any delete.
  const t = item.kind === "draft" ? await liveThing(ctx, item.thingId, loc) : null;
  let eventId: string | null = null;
  if (t?.lifecycle === "draft") eventId = (await changeThing(ctx, t, { deletedAt: ctx.now.toISOString() }, "thing.deleted", "thing.deleted")).eventId;
  return resolve(ctx, item, "dismissed", {}, eventId);
});

/** Attributes a merge copies from the draft where the target has none. */
const FILLABLE = ["description", "brandId", "model", "colour", "serial", "condition"] as const;

export const inboxMerge = reviewCommand<InboxMergeArgs>(
  "inbox.merge",
  inboxMergeArgs,
  async (ctx, item, args, loc) => {
    const draft = await liveThing(ctx, item.thingId, loc);
    const target = await liveThing(ctx, args.into, loc);
    if (!draft) return rejected(new ValidationError("Only an item with a captured thing can be merged."));
    if (!target) return rejected(new NotFoundError("thing to merge into"));
    if (target.id === draft.id) return rejected(new ValidationError("into: a thing cannot be merged into itself."));
    const values: Record<string, unknown> = {};
    for (const k of FILLABLE) if (target[k] === null && draft[k] !== null) values[k] = draft[k];
    for (const [k, v] of Object.entries(draft.fields)) if (!(k in target.fields)) values[`fields.${k}`] = v;
    const merged = await changeThing(ctx, target, values, "thing.merged", "thing.merged", {
      mergedFromId: draft.id,
      mergedFromName: draft.name ?? "",
    });
    await changeThing(ctx, draft, { deletedAt: ctx.now.toISOString() }, "thing.deleted", "thing.merged_away", { into: target.name ?? "" });
    return resolve(ctx, item, "merged", { mergedInto: target.id }, merged.eventId);
  },
  (a) => [a.into],
);
