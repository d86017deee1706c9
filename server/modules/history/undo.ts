/**
 * Undo of a history event, as a command: inside the window, by the event's actor or an admin, and
 * only while the fields the event changed still hold the values it wrote (otherwise undoing would
 * silently throw away a later change).
 */
import { isDeepStrictEqual } from "node:util";
import { eq } from "drizzle-orm";
import { undoArgs, type UndoArgs } from "../../../shared/history.js";
import { roleAtLeast } from "../../../shared/roles.js";
import { bulkInsert } from "../../commands/bulk.js";
import { historyRow, pick } from "../../commands/history.js";
import { applied, defineCommand, rejected, type CommandContext, type Verdict } from "../../commands/types.js";
import { historyEntries, places, things } from "../../db/schema/index.js";
import { ConflictError, ForbiddenError, NotFoundError, UndoExpiredError } from "../../errors/classes.js";
import { readValues, writeValues } from "../things/values.js";

type Event = typeof historyEntries.$inferSelect;

const changedSince = () => new ConflictError("This was changed again after that event; undo the later change first or edit it by hand.");

async function undoThing(ctx: CommandContext, event: Event): Promise<{ rowVersion: number; eventId: string } | Error> {
  const [row] = await ctx.tx.select().from(things).where(eq(things.id, event.entityId)).for("update");
  if (!row) return new NotFoundError("thing");
  if (!isDeepStrictEqual(readValues(row, Object.keys(event.after)), event.after)) return changedSince();
  const revert = event.action === "thing.created" ? { deletedAt: ctx.now.toISOString() } : event.before;
  const keys = Object.keys(revert);
  const next = { ...writeValues(row, revert), rowVersion: row.rowVersion + 1, updatedAt: ctx.now };
  await ctx.tx.update(things).set(next).where(eq(things.id, row.id));
  const action = event.action === "thing.created" ? "thing.deleted" : event.action === "thing.deleted" ? "thing.restored" : event.action;
  const h = historyRow(ctx, {
    locationId: event.locationId,
    entityType: "thing",
    entityId: row.id,
    entityName: next.name,
    action,
    before: readValues(row, keys),
    after: readValues(next, keys),
    classes: event.diff ? Object.fromEntries(Object.entries(event.diff).map(([k, d]) => [k, d.class as "plain"])) : {},
    summaryKey: "history.undone",
    summaryParams: { name: next.name ?? "", action: event.action },
    rowVersionAfter: next.rowVersion,
    undoable: false,
    undoOfEventId: event.id,
  });
  await bulkInsert(ctx.tx, historyEntries, [h]);
  return { rowVersion: next.rowVersion, eventId: h.id };
}

async function undoPlace(ctx: CommandContext, event: Event): Promise<{ rowVersion: number; eventId: string } | Error> {
  const [row] = await ctx.tx.select().from(places).where(eq(places.id, event.entityId)).for("update");
  if (!row) return new NotFoundError("place");
  const keys = Object.keys(event.after);
  if (!isDeepStrictEqual(pick(row, keys), event.after)) return changedSince();
  const next = { ...row, ...(event.before as Partial<typeof row>), rowVersion: row.rowVersion + 1, updatedAt: ctx.now };
  await ctx.tx.update(places).set(next).where(eq(places.id, row.id));
  const h = historyRow(ctx, {
    locationId: event.locationId,
    entityType: "place",
    entityId: row.id,
    entityName: next.name,
    action: "place.updated",
    before: pick(row, keys),
    after: pick(next, keys),
    summaryKey: "history.undone",
    summaryParams: { name: next.name, action: event.action },
    rowVersionAfter: next.rowVersion,
    undoable: false,
    undoOfEventId: event.id,
  });
  await bulkInsert(ctx.tx, historyEntries, [h]);
  return { rowVersion: next.rowVersion, eventId: h.id };
}

export const historyUndo = defineCommand<UndoArgs>({
  name: "history.undo",
  args: undoArgs,
  minRole: "member",
  target: (a) => a.eventId,
  async run(ctx, ops) {
    const verdicts: Verdict[] = [];
    for (const { args, input } of ops) {
      const [event] = await ctx.tx.select().from(historyEntries).where(eq(historyEntries.id, args.eventId)).for("update");
      if (!event || event.locationId !== input.locationId) {
        verdicts.push(rejected(new NotFoundError("history event")));
        continue;
      }
      const role = ctx.roles.get(input.locationId);
      const own = event.actorUserId === ctx.actor.userId && (ctx.actor.type !== "token" || event.actorTokenId === ctx.actor.tokenId);
      if (!own && !(ctx.actor.type === "user" && role && roleAtLeast(role, "admin"))) {
        verdicts.push(rejected(new ForbiddenError("Only the person who made a change, or an admin, can undo it.")));
        continue;
      }
      if (!event.undoableUntil || event.undoneAt || event.undoableUntil.getTime() <= ctx.now.getTime()) {
        verdicts.push(rejected(new UndoExpiredError()));
        continue;
      }
      const result =
        event.entityType === "thing" ? await undoThing(ctx, event) : event.entityType === "place" ? await undoPlace(ctx, event) : new UndoExpiredError();
      if (result instanceof Error) {
        verdicts.push(rejected(result as ConflictError));
        continue;
      }
      await ctx.tx.update(historyEntries).set({ undoneAt: ctx.now, undoneByEventId: result.eventId }).where(eq(historyEntries.id, event.id));
      verdicts.push(applied(ctx, event.entityId, result.rowVersion, result.eventId));
    }
    return verdicts;
  },
});
