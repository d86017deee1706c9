/**
 * The runs most commands share: their ops taken one by one into one SegmentChanges, and the
 * delete that tombstones each op's locked target. A command with more to do before or after
 * (loading refs, writing what the segment does not) calls these from its own run.
 */
import type { PgTable } from "drizzle-orm/pg-core";
import { SegmentChanges, type EntityNaming } from "./segment.js";
import type { TargetRow, Targets } from "./targets.js";
import type { CommandContext, Op, Verdict } from "./types.js";

/**
 * Each op in order is one `step` into the segment's one SegmentChanges (a later op sees what an
 * earlier one left in memory), then every write goes out together.
 */
export async function eachOp<A>(ctx: CommandContext, ops: Op<A>[], step: (changes: SegmentChanges, op: Op<A>) => void | Promise<void>): Promise<Verdict[]> {
  const changes = new SegmentChanges(ctx);
  for (const op of ops) await step(changes, op);
  return changes.write();
}

/**
 * A delete: each op's locked target, checked strictly (a delete merges no fields, so any stale
 * version conflicts), becomes a tombstone with its history entry; a later op of the segment sees it gone.
 */
export function tombstoneEach<T extends PgTable, R extends TargetRow & Partial<T["$inferSelect"]> & { rowVersion: number }>(
  ctx: CommandContext,
  ops: Op<{ id: string }>[],
  targets: Targets<R>,
  table: T,
  { entityType, nameOf, undoable }: EntityNaming<R>,
): Promise<Verdict[]> {
  return eachOp(ctx, ops, (changes, op) => {
    const target = targets.get(op.args.id);
    if (changes.refused(targets.problem(op, target, { fields: "all" }), target)) return;
    const name = nameOf(target);
    targets.set(
      changes.tombstoned(table, target, {
        locationId: op.input.locationId,
        entityType,
        entityName: name,
        action: `${entityType}.deleted`,
        summaryParams: { name: name ?? "" },
        undoable,
      }),
    );
  });
}

/**
 * A run over locked rows: `lock` locks the ops' targets in one statement, then each op is one
 * `step` with its target (by the op's id, undefined when none was found) and the targets, whose
 * check (Targets.problem) the step asks and whose state it keeps current, and the command's context.
 */
export function onTargets<A extends { id: string }, R extends TargetRow>(
  lock: (ctx: CommandContext, ops: Op<{ id: string }>[]) => Promise<Targets<R>>,
  step: (changes: SegmentChanges, op: Op<A>, target: R | undefined, targets: Targets<R>, ctx: CommandContext) => void,
): (ctx: CommandContext, ops: Op<A>[]) => Promise<Verdict[]> {
  return async (ctx, ops) => {
    const targets = await lock(ctx, ops);
    return eachOp(ctx, ops, (changes, op) => step(changes, op, targets.get(op.args.id), targets, ctx));
  };
}
