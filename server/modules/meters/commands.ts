/**
 * Commands on meters: create (on a live thing of the op's location), update (the spec's PATCH
 * fields, the offset of a replaced counter, the unit and kind) and delete (a tombstone; its
 * readings stay, unreachable with it). Members and above; each records a history entry.
 */
import { Decimal } from "decimal.js";
import { meterCreateArgs, meterDeleteArgs, meterUpdateArgs, type MeterCreateArgs, type MeterDeleteArgs, type MeterUpdateArgs } from "../../../shared/meters.js";
import { eachOp, onTargets, tombstoneEach } from "../../commands/runs.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { meters, things } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { liveThingsOf } from "../things/refs.js";

type MeterRow = typeof meters.$inferSelect;

/** maxPerDay travels as a number (the spec's type) and is kept as numeric: its 3 decimals, exactly. */
const perDayIn = (n: number | null | undefined) => (n === null || n === undefined ? null : new Decimal(n).toFixed(3));
const nameOf = (m: Pick<MeterRow, "label" | "kind">) => m.label ?? m.kind;
/** How the history names a meter's edits and its delete. */
const naming = { entityType: "meter", nameOf, undoable: false };

export const meterCreate = defineCommand<MeterCreateArgs>({
  name: "meter.create",
  args: meterCreateArgs,
  minRole: "member",
  refs: (a) => [a.thingId],
  creates: true,
  async run(ctx, ops) {
    const found = await ctx.tx.select({ id: things.id, locationId: things.locationId }).from(things).where(liveThingsOf(ops));
    const thingLocation = new Map(found.map((t) => [t.id, t.locationId]));
    return eachOp(ctx, ops, (changes, { args, input }) => {
      const thingId = args.thingId.toLowerCase();
      if (thingLocation.get(thingId) !== input.locationId) return changes.refuse(new NotFoundError("thing"));
      const row: MeterRow = {
        id: args.id,
        locationId: input.locationId,
        thingId,
        kind: args.kind,
        unit: args.unit,
        label: args.label ?? null,
        offset: args.offset ?? "0",
        maxPerDay: perDayIn(args.maxPerDay),
        nudgeDays: args.nudgeDays ?? null,
        nudgedFor: null,
        createdBy: ctx.actor.userId,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      };
      const shown = { kind: row.kind, unit: row.unit, label: row.label, offset: row.offset, maxPerDay: row.maxPerDay, nudgeDays: row.nudgeDays };
      changes.created(meters, row, {
        locationId: input.locationId,
        entityType: "meter",
        entityId: row.id,
        entityName: nameOf(row),
        action: "meter.created",
        before: Object.fromEntries(Object.keys(shown).map((k) => [k, null])),
        after: shown,
        summaryParams: { name: nameOf(row) },
        undoable: false,
      });
    });
  },
});

/** The columns update and delete read and write. */
const METER_KEYS = ["locationId", "kind", "unit", "label", "offset", "maxPerDay", "nudgeDays", "rowVersion", "deletedAt"] as const;

const lockMeters = (ctx: CommandContext, ops: Op<{ id: string }>[]) => lockTargets(ctx, meters, { entity: "meter", entityType: "meter" }, ops, METER_KEYS);

export const meterUpdate = defineCommand<MeterUpdateArgs>({
  name: "meter.update",
  args: meterUpdateArgs,
  minRole: "member",
  run: onTargets(lockMeters, (changes, op, target, targets) => {
    // Each patched field merges on its own: a stale pushed op that sets the label does not
    // conflict with someone else's new maxPerDay.
    if (changes.refused(targets.problem(op, target, { fields: Object.keys(op.args.patch) }), target)) return;
    const p = op.args.patch;
    const patch: Partial<MeterRow> = {};
    if (p.label !== undefined) patch.label = p.label;
    if (p.maxPerDay !== undefined) patch.maxPerDay = perDayIn(p.maxPerDay);
    if (p.nudgeDays !== undefined) patch.nudgeDays = p.nudgeDays;
    if (p.offset !== undefined) patch.offset = p.offset;
    if (p.unit !== undefined) patch.unit = p.unit;
    if (p.kind !== undefined) patch.kind = p.kind;
    targets.set(changes.patched(meters, target, patch, op.input.locationId, naming));
  }),
});

export const meterDelete = defineCommand<MeterDeleteArgs>({
  name: "meter.delete",
  args: meterDeleteArgs,
  minRole: "member",
  run: async (ctx, ops) => tombstoneEach(ctx, ops, await lockMeters(ctx, ops), meters, naming),
});
