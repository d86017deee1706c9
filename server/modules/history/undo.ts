/**
 * Undo of a history event, as a command: inside the window, by the event's actor or an admin, and
 * only while the fields the event changed still hold the values it wrote (otherwise undoing would
 * silently throw away a later change). A segment locks its events, then the things and places
 * they are about, in one statement each, undoes in memory (two events of one thing see each
 * other's result) and writes once, marking the events undone in the same set-based update.
 */
import { isDeepStrictEqual } from "node:util";
import { undoArgs, type UndoArgs } from "../../../shared/history.js";
import { undoVerdict } from "../../../shared/undo.js";
import { lockRows } from "../../commands/bulk.js";
import { pick, type FieldClass } from "../../commands/history.js";
import { SegmentChanges } from "../../commands/segment.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand, type CommandContext } from "../../commands/types.js";
import { historyEntries, places, things } from "../../db/schema/index.js";
import { ConflictError, ForbiddenError, NotFoundError, UndoExpiredError, type AppError } from "../../errors/classes.js";
import { changeThing } from "../things/changes.js";
import { TARGET_KEYS, readValues, writeValues, type ThingRow, type ThingTarget } from "../things/values.js";

const EVENT_KEYS = [
  "locationId",
  "entityType",
  "entityId",
  "action",
  "actorUserId",
  "actorTokenId",
  "undoableUntil",
  "undoneAt",
  "before",
  "after",
  "diff",
] as const;
type Event = Pick<typeof historyEntries.$inferSelect, (typeof EVENT_KEYS)[number] | "id">;
type Place = Pick<typeof places.$inferSelect, "id" | "locationId" | "name" | "rowVersion"> & Record<string, unknown>;

const changedSince = () => new ConflictError("This was changed again after that event; undo the later change first or edit it by hand.");

/** The columns behind the events' history keys (custom fields live in `fields`): what undo reads. */
function columnsOf(events: Event[]): string[] {
  const out = new Set<string>();
  for (const e of events) for (const k of [...Object.keys(e.before), ...Object.keys(e.after)]) out.add(k.startsWith("fields.") ? "fields" : k);
  return [...out];
}

/** Locks the rows the events are about, with the columns they name: one statement per table. */
async function lockEntities(ctx: CommandContext, events: Event[]) {
  const of = (type: string) => events.filter((e) => e.entityType === type);
  const [thingEvents, placeEvents] = [of("thing"), of("place")];
  const thingRows = (await lockRows(
    ctx.tx,
    things,
    thingEvents.map((e) => e.entityId),
    [...TARGET_KEYS, ...(columnsOf(thingEvents) as (keyof ThingRow)[])],
  )) as ThingTarget[];
  const placeRows = (await lockRows(
    ctx.tx,
    places,
    placeEvents.map((e) => e.entityId),
    ["locationId", "name", "rowVersion", ...(columnsOf(placeEvents) as (keyof typeof places.$inferSelect)[])],
  )) as Place[];
  return { things: new Map(thingRows.map((t) => [t.id, t])), places: new Map(placeRows.map((p) => [p.id, p])) };
}

export const historyUndo = defineCommand<UndoArgs>({
  name: "history.undo",
  args: undoArgs,
  minRole: "member",
  target: (a) => a.eventId,
  async run(ctx, ops) {
    const events = await lockTargets(
      ctx,
      historyEntries,
      { entity: "history event" },
      ops.map((o) => ({ input: o.input, args: { id: o.args.eventId } })),
      EVENT_KEYS,
    );
    // The rule the app asks too before it offers Undo (shared/undo.ts).
    const mayUndo = (event: Event, locationId: string): AppError | null => {
      const reader = { type: ctx.actor.type, userId: ctx.actor.userId, tokenId: ctx.actor.tokenId, role: ctx.roles.get(locationId) };
      const verdict = undoVerdict(event, reader, ctx.now);
      if (verdict === "ok") return null;
      if (verdict === "expired") return new UndoExpiredError();
      return new ForbiddenError("Only the person who made a change, or an admin, can undo it.");
    };
    const problems = ops.map((op) => events.problem(op, events.get(op.args.eventId), { also: (e) => mayUndo(e, op.input.locationId) }));
    const rows = await lockEntities(
      ctx,
      ops.filter((_, i) => !problems[i]).map((op) => events.get(op.args.eventId)!),
    );
    const changes = new SegmentChanges(ctx);
    ops.forEach((op, i) => {
      const event = events.get(op.args.eventId)!;
      const done = problems[i] ?? (event.entityType === "thing" ? undoThing : event.entityType === "place" ? undoPlace : expired)(ctx, changes, rows, event);
      if (done instanceof Error) return changes.refuse(done);
      changes.update(historyEntries, { id: event.id, undoneAt: ctx.now, undoneByEventId: done.eventId }, ["undoneAt", "undoneByEventId"]);
      changes.applied(event.entityId, done.rowVersion, done.eventId);
    });
    return changes.write();
  },
});

type Rows = Awaited<ReturnType<typeof lockEntities>>;
type Undone = { rowVersion: number; eventId: string } | AppError;

/** Only things and places have undoable events. */
const expired = (): Undone => new UndoExpiredError();

function undoThing(ctx: CommandContext, changes: SegmentChanges, rows: Rows, event: Event): Undone {
  const row = rows.things.get(event.entityId);
  if (!row) return new NotFoundError("thing");
  if (!isDeepStrictEqual(readValues(row, Object.keys(event.after)), event.after)) return changedSince();
  const revert = event.action === "thing.created" ? { deletedAt: ctx.now.toISOString() } : event.before;
  const next = { ...writeValues(row, revert), rowVersion: row.rowVersion + 1, updatedAt: ctx.now };
  rows.things.set(next.id, next);
  const eventId = changeThing(changes, row, next, {
    action: event.action === "thing.created" ? "thing.deleted" : event.action === "thing.deleted" ? "thing.restored" : event.action,
    keys: Object.keys(revert),
    classes: Object.fromEntries(Object.entries(event.diff).map(([k, d]) => [k, d.class as FieldClass])),
    summaryKey: "history.undone",
    summaryParams: { action: event.action },
    undoOfEventId: event.id,
  });
  return { rowVersion: next.rowVersion, eventId };
}

function undoPlace(ctx: CommandContext, changes: SegmentChanges, rows: Rows, event: Event): Undone {
  const row = rows.places.get(event.entityId);
  if (!row) return new NotFoundError("place");
  const keys = Object.keys(event.after);
  if (!isDeepStrictEqual(pick(row, keys), event.after)) return changedSince();
  const next = { ...row, ...event.before, rowVersion: row.rowVersion + 1, updatedAt: ctx.now };
  rows.places.set(next.id, next);
  changes.update(places, next, [...(Object.keys(event.before) as (keyof typeof places.$inferSelect)[]), "rowVersion", "updatedAt"]);
  const eventId = changes.record({
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
  return { rowVersion: next.rowVersion, eventId };
}
