/**
 * boxcheck.record: a person at an open box says what they found. Two devices may check the same box
 * offline and push in either order, so every effect here is order-independent: `lastSeenAt` only
 * grows (the latest sighting wins), and `missingSince` is not overwritten but derived again from
 * every recorded check: the earliest "not here" dated after the thing's latest sighting. Whatever
 * order the checks arrive in, the thing ends in the same state, and every check is kept.
 */
import { boxCheckRecordArgs, type BoxCheckRecordArgs } from "../../../shared/box-checks.js";
import { lockRows } from "../../commands/bulk.js";
import { SegmentChanges } from "../../commands/segment.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { boxChecks, things } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import { loadRefs } from "../things/refs.js";
import { changeThing } from "../things/changes.js";
import { type ThingRow } from "../things/values.js";
import { walkUp } from "../../db/tree.js";

/** What a check reads and writes of a thing: the one update of the segment sets these columns. */
const KEYS = ["id", "locationId", "typeId", "name", "isContainer", "placeId", "containerId", "lastSeenAt", "missingSince", "rowVersion", "deletedAt"] as const;
type Thing = Pick<ThingRow, (typeof KEYS)[number]>;
const WRITES = ["lastSeenAt", "missingSince", "placeId", "containerId", "rowVersion", "updatedAt"] as const;

/** Every thing a check names, the box first. */
const named = (a: BoxCheckRecordArgs): string[] => [a.containerId, ...a.seen, ...a.notHere, ...a.split.map((s) => s.thingId), ...a.movedIn];

const later = (a: Date | null, b: Date | null): Date | null => (!a ? b : !b ? a : a.getTime() >= b.getTime() ? a : b);

/** The "not here" dates already recorded for these things (the ground missingSince is derived from). */
async function recordedAbsences(ctx: CommandContext, locationIds: string[], ids: string[]): Promise<Map<string, Date[]>> {
  const out = new Map<string, Date[]>();
  if (!ids.length) return out;
  const found = await rows<{ id: string; at: string }>(
    ctx.tx,
    sql`SELECT n.id, b.at FROM box_checks b CROSS JOIN LATERAL unnest(b.not_here) AS n(id)
        WHERE b.location_id = ANY(${uuidArray(locationIds)}) AND b.deleted_at IS NULL AND b.not_here && ${uuidArray(ids)} AND n.id = ANY(${uuidArray(ids)})`,
  );
  for (const r of found) out.set(r.id, [...(out.get(r.id) ?? []), new Date(r.at)]);
  return out;
}

/** The container each thing up the boxes' chains sits in, as stored (a chain is at most 64 deep, as moves check it). */
async function chainParents(ctx: CommandContext, boxIds: string[]): Promise<Map<string, string | null>> {
  if (!boxIds.length) return new Map();
  const found = await rows<{ id: string; parent: string | null }>(
    ctx.tx,
    sql`${walkUp("things", sql`n.id = ANY(${uuidArray(boxIds)})`)} SELECT DISTINCT id, parent FROM up`,
  );
  return new Map(found.map((r) => [r.id, r.parent]));
}

/**
 * Why an op cannot be recorded, or null. The box must be a live container of the op's location;
 * every thing it names must be a thing of that location (a thing deleted since is only skipped: the
 * person checked a list that was older than the delete).
 */
function problemOf(op: Op<BoxCheckRecordArgs>, found: Map<string, Thing>, recorded: Set<string>): AppError | null {
  const loc = op.input.locationId;
  if (recorded.has(op.args.id)) return new ConflictError("This box check was already recorded.");
  const box = found.get(op.args.containerId);
  if (!box || box.locationId !== loc || box.deletedAt) return new NotFoundError("container");
  if (!box.isContainer) return new ValidationError("containerId: that thing is not a container.");
  for (const id of named(op.args).slice(1)) {
    const t = found.get(id);
    if (!t || t.locationId !== loc) return new NotFoundError(`thing ${id}`);
  }
  return null;
}

export const boxCheckRecord = defineCommand({
  name: "boxcheck.record",
  args: boxCheckRecordArgs,
  minRole: "member",
  // A check naming a thing whose create was dropped in the same push depends on that create.
  refs: named,
  creates: true,
  async run(ctx, ops) {
    const ids = [...new Set(ops.flatMap((o) => named(o.args)))].sort();
    const [locked, already] = await Promise.all([
      lockRows(ctx.tx, things, ids, KEYS) as Promise<Thing[]>,
      rows<{ id: string }>(ctx.tx, sql`SELECT id FROM box_checks WHERE id = ANY(${uuidArray(ops.map((o) => o.args.id))})`),
    ]);
    const found = new Map(locked.map((t) => [t.id, t]));
    const recorded = new Set(already.map((r) => r.id));
    const problems = ops.map((op) => problemOf(op, found, recorded));
    const ok = ops.filter((_, i) => !problems[i]);
    const movedIds = ok.flatMap((o) => o.args.movedIn);
    const [parents, refs, absences] = await Promise.all([
      chainParents(
        ctx,
        ok.map((o) => o.args.containerId),
      ),
      movedIds.length
        ? loadRefs(ctx.tx, {
            locationIds: ok.map((o) => o.input.locationId),
            placeIds: movedIds.map((id) => found.get(id)?.placeId).filter((x): x is string => !!x),
            containerIds: movedIds.map((id) => found.get(id)?.containerId).filter((x): x is string => !!x),
          })
        : undefined,
      recordedAbsences(
        ctx,
        [...new Set(ok.map((o) => o.input.locationId))],
        ok.flatMap((o) => named(o.args)),
      ),
    ]);
    const changes = new SegmentChanges(ctx);
    /** Things as the segment's checks leave them; written once at the end. */
    const next = new Map<string, Thing>();
    const current = (id: string) => next.get(id) ?? found.get(id)!;
    const touched = new Set<string>();
    /** Things moved into a box, with the box's name: one history entry each, from where they were to where they ended. */
    const moves = new Map<string, string>();
    /**
     * Whether `id` holds `box` (is the box or one of its holders), as the segment's earlier checks
     * left things: a thing moved into a box here is inside it for the next op's check.
     */
    const holds = (id: string, box: string) => {
      let at: string | null | undefined = box;
      for (let depth = 0; at && depth <= 64; depth++) {
        if (at === id) return true;
        const t: Thing | undefined = next.get(at) ?? found.get(at);
        at = t ? t.containerId : parents.get(at);
      }
      return false;
    };
    const sight = (id: string, at: Date) => {
      const t = current(id);
      const seen = later(t.lastSeenAt, at);
      if (seen !== t.lastSeenAt) next.set(id, { ...t, lastSeenAt: seen });
      touched.add(id);
    };
    ops.forEach((op, i) => {
      const problem = problems[i];
      if (problem) return changes.refuse(problem);
      const { args } = op;
      const at = new Date(args.at);
      const box = current(args.containerId);
      const live = (id: string) => !current(id).deletedAt;
      const list = {
        seen: args.seen.filter(live),
        notHere: args.notHere.filter(live),
        split: args.split.filter((s) => live(s.thingId)),
        movedIn: [] as string[],
      };
      for (const id of args.movedIn.filter(live)) {
        // A thing that holds the box (or the box's own holders) cannot go into it: it was seen, not moved.
        if (holds(id, box.id)) list.seen.push(id);
        else list.movedIn.push(id);
      }
      sight(box.id, at);
      for (const id of [...list.seen, ...list.split.map((s) => s.thingId), ...list.movedIn]) sight(id, at);
      for (const id of list.notHere) {
        touched.add(id);
        absences.set(id, [...(absences.get(id) ?? []), at]);
      }
      for (const id of list.movedIn) {
        const t = current(id);
        if (t.containerId === box.id) continue;
        next.set(id, { ...t, placeId: null, containerId: box.id });
        moves.set(id, box.name ?? "");
      }
      changes.insert(boxChecks, {
        id: args.id,
        locationId: op.input.locationId,
        containerId: box.id,
        at,
        byUserId: ctx.actor.userId,
        seen: list.seen,
        notHere: list.notHere,
        split: list.split,
        movedIn: list.movedIn,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      });
      changes.applied(args.id, 1, null);
    });
    // missingSince from every recorded absence: the earliest one after the latest sighting.
    for (const id of touched) {
      const t = current(id);
      const after = (absences.get(id) ?? []).filter((d) => !t.lastSeenAt || d.getTime() > t.lastSeenAt.getTime());
      const missing = after.length ? new Date(Math.min(...after.map((d) => d.getTime()))) : null;
      if ((missing?.getTime() ?? null) !== (t.missingSince?.getTime() ?? null)) next.set(id, { ...t, missingSince: missing });
    }
    for (const [id, t] of next) {
      const before = found.get(id)!;
      const same = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
      const moved = t.containerId !== before.containerId || t.placeId !== before.placeId;
      if (!moved && same(t.lastSeenAt, before.lastSeenAt) && same(t.missingSince, before.missingSince)) continue;
      const row = { ...t, rowVersion: before.rowVersion + 1, updatedAt: ctx.now };
      if (!moved) {
        changes.update(things, row, WRITES);
        continue;
      }
      const from = (before.containerId ? refs?.containers.get(before.containerId)?.name : refs?.places.get(before.placeId ?? "")?.name) ?? "";
      changeThing(changes, before, row, {
        action: "thing.moved",
        keys: ["placeId", "containerId"],
        summaryParams: { from, to: moves.get(id) ?? "" },
        touches: ["lastSeenAt", "missingSince"],
        movedInFromElsewhere: true,
      });
    }
    return changes.write();
  },
});
