/**
 * move.create and move.update: a move belongs to the location its boxes leave (members and up).
 * Its target must be another location of the same owner account that the actor can read: types,
 * tags, brands and fields are the account's, so a thing cannot keep them in another account.
 */
import { moveCreateArgs, moveUpdateArgs, type MoveCreateArgs, type MoveUpdateArgs } from "../../../shared/moves.js";
import { pick } from "../../commands/history.js";
import { eachOp } from "../../commands/runs.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand, type CommandContext } from "../../commands/types.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { moves } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";

type MoveRow = typeof moves.$inferSelect;

/** The names of the target locations the ops name (readable ones only: RLS hides the rest). */
export async function locationNames(ctx: CommandContext, ids: (string | null | undefined)[]): Promise<Map<string, string>> {
  const want = [...new Set(ids.filter((x): x is string => !!x))];
  if (!want.length) return new Map();
  const found = await rows<{ id: string; name: string }>(ctx.tx, sql`SELECT id, name FROM locations WHERE id = ANY(${uuidArray(want)})`);
  return new Map(found.map((r) => [r.id, r.name]));
}

/** Why `to` cannot be the target of a move leaving `from`, or null. */
export function targetProblem(ctx: CommandContext, from: string, to: string, names: Map<string, string>): AppError | null {
  if (to === from) return new ValidationError("toLocationId: a move goes to another location than the one its boxes leave.");
  if (!ctx.roles.has(to) || !names.has(to)) return new NotFoundError("target location");
  if (ctx.accounts.get(to) !== ctx.accounts.get(from))
    return new ConflictError(
      "toLocationId: that location belongs to another owner account. Types, tags and fields belong to an account, so boxes can only move between locations of the same owner.",
    );
  return null;
}

export const moveCreate = defineCommand<MoveCreateArgs>({
  name: "move.create",
  args: moveCreateArgs,
  minRole: "member",
  creates: true,
  async run(ctx, ops) {
    const names = await locationNames(
      ctx,
      ops.map((o) => o.args.toLocationId),
    );
    return eachOp(ctx, ops, (changes, { args, input }) => {
      const to = args.toLocationId?.toLowerCase() ?? null;
      const problem = to ? targetProblem(ctx, input.locationId, to, names) : null;
      if (problem) return changes.refuse(problem);
      const row: MoveRow = {
        id: args.id.toLowerCase(),
        locationId: input.locationId,
        toLocationId: to,
        toLocationName: to ? names.get(to)! : null,
        name: args.name,
        status: "active",
        createdBy: ctx.actor.userId,
        finishedAt: null,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      };
      changes.created(moves, row, {
        locationId: input.locationId,
        entityType: "move",
        entityId: row.id,
        entityName: row.name,
        action: "move.created",
        before: { name: null, toLocationName: null },
        after: { name: row.name, toLocationName: row.toLocationName },
        summaryParams: { name: row.name },
        undoable: false,
      });
    });
  },
});

const MOVE_KEYS = ["locationId", "name", "toLocationId", "toLocationName", "status", "finishedAt", "rowVersion", "deletedAt"] as const;

export const moveUpdate = defineCommand<MoveUpdateArgs>({
  name: "move.update",
  args: moveUpdateArgs,
  minRole: "member",
  async run(ctx, ops) {
    const [targets, names] = await Promise.all([
      lockTargets(ctx, moves, { entity: "move", entityType: "move" }, ops, MOVE_KEYS),
      locationNames(
        ctx,
        ops.map((o) => o.args.patch.toLocationId),
      ),
    ]);
    return eachOp(ctx, ops, (changes, op) => {
      const { args, input } = op;
      const target = targets.get(args.id);
      const p = args.patch;
      const problem = targets.problem(op, target, {
        fields: Object.keys(p),
        // A finished or cancelled move is closed: no way back, no more changes.
        also: (m) => (m.status !== "active" ? new ConflictError(`This move is ${m.status}; it cannot be changed any more.`) : null),
      });
      if (changes.refused(problem, target)) return;
      const to = p.toLocationId?.toLowerCase();
      const bad = to ? targetProblem(ctx, input.locationId, to, names) : null;
      if (bad) return changes.refuse(bad);
      const patch: Partial<MoveRow> = {};
      if (p.name !== undefined) patch.name = p.name;
      if (p.toLocationId !== undefined) {
        patch.toLocationId = to ?? null;
        patch.toLocationName = to ? names.get(to)! : null;
      }
      if (p.status !== undefined) {
        patch.status = p.status;
        patch.finishedAt = p.status === "finished" ? ctx.now : null;
      }
      const keys = Object.keys(patch) as (keyof MoveRow)[];
      const next = { ...target, ...patch, rowVersion: target.rowVersion + 1, updatedAt: ctx.now };
      targets.set(next);
      changes.changed(moves, next, [...keys, "rowVersion", "updatedAt"], {
        locationId: input.locationId,
        entityType: "move",
        entityId: next.id,
        entityName: next.name,
        action: "move.updated",
        before: pick(target, keys),
        after: pick(next, keys),
        summaryParams: { name: next.name },
        undoable: false,
      });
    });
  },
});
