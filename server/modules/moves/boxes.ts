/**
 * The box ops of a move besides adding (add.ts): update (destination, state), the scans in the truck (load, unload,
 * unpack) and remove. A mover scans offline and pushes later, perhaps twice, perhaps from two
 * phones: the same scan twice answers applied with nothing changed, and a load or unload older
 * than the box's last state change is outrun by it (the later scan wins, in whatever order they
 * arrive). Only a transition that makes no sense (loading an unpacked box) is refused.
 */
import {
  boxRemoveArgs,
  boxScanArgs,
  boxTransition,
  boxUpdateArgs,
  SCAN_STATES,
  type BoxRemoveArgs,
  type BoxScanArgs,
  type BoxState,
  type BoxUpdateArgs,
  type DestinationInput,
} from "../../../shared/moves.js";
import { eachOp } from "../../commands/runs.js";
import { defineCommand, type CommandContext, type CommandDef, type Op, type Verdict } from "../../commands/types.js";
import { versionProblem } from "../../commands/versions.js";
import { moveBoxes } from "../../db/schema/index.js";
import { ConflictError, NotFoundError } from "../../errors/classes.js";
import { destinations, key, loadSegment, moveProblem, type BoxOpArgs, type BoxRow } from "./box-rows.js";
import { unpackBox } from "./transfer.js";

interface BoxChange {
  /** The state the op asks for, if any. */
  to?: BoxState | undefined;
  destination?: DestinationInput | undefined;
  /** When the device saw it (stateAt); a REST change is now. */
  at?: string | undefined;
  /** A load or unload older than the box's state: outrun by a later scan (not for REST, which says what it wants now). */
  ordered: boolean;
}

/** The one path every state and destination change runs: scans, PATCH, and the unpack that moves things. */
async function changeBoxes<A extends BoxOpArgs>(ctx: CommandContext, ops: Op<A>[], what: (a: A) => BoxChange): Promise<Verdict[]> {
  const seg = await loadSegment(ctx, ops);
  const dest = await destinations(
    ctx,
    ops.map((o) => ({ move: seg.moves.get(o.args.moveId.toLowerCase())!, destination: what(o.args).destination })),
  );
  return eachOp(ctx, ops, async (changes, op) => {
    const move = seg.moves.get(op.args.moveId.toLowerCase());
    const box = seg.boxes.get(key(op.args));
    const problem = moveProblem(op, move) ?? (box ? null : new NotFoundError("box of this move"));
    if (problem || !move || !box) return changes.refuse(problem!);
    const c = what(op.args);
    const fields = [...(c.to ? ["state"] : []), ...(c.destination !== undefined ? ["destination"] : [])];
    const stale = versionProblem(op, box, fields, new Map());
    if (stale) return changes.refuse(stale);
    const next: BoxRow = { ...box };
    if (c.destination !== undefined) {
      const d = dest(move, c.destination);
      if (d instanceof Error) return changes.refuse(d);
      next.destinationPlaceId = d.placeId;
      next.destinationName = d.name;
    }
    const at = c.at ? new Date(c.at) : ctx.now;
    if (c.to) {
      const step = boxTransition(box.state, c.to);
      if (step === "refused")
        return changes.refuse(new ConflictError(`Box ${box.number} is already unpacked; it cannot be ${c.to === "packed" ? "unloaded" : "loaded"} again.`));
      const outrun = c.ordered && c.to !== "unpacked" && at.getTime() < box.stateAt.getTime();
      if (step === "ok" && !outrun) {
        if (c.to === "unpacked") {
          const refused = await unpackBox(ctx, move, next);
          if (refused) return changes.refuse(refused);
        }
        next.state = c.to;
        next.stateAt = at;
      }
    }
    const same = next.state === box.state && next.destinationPlaceId === box.destinationPlaceId && next.destinationName === box.destinationName;
    if (same) return changes.applied(box.id, box.rowVersion, null);
    const row = { ...next, rowVersion: box.rowVersion + 1, updatedAt: ctx.now };
    seg.boxes.set(key(row), row);
    changes.update(moveBoxes, row, ["state", "stateAt", "destinationPlaceId", "destinationName", "rowVersion", "updatedAt"]);
    changes.applied(row.id, row.rowVersion, null);
  });
}

export const boxUpdate = defineCommand<BoxUpdateArgs>({
  name: "box.update",
  args: boxUpdateArgs,
  minRole: "member",
  target: key,
  run: (ctx, ops) => changeBoxes(ctx, ops, (a) => ({ to: a.state, destination: a.destination, at: a.at, ordered: false })),
});

const scan = (name: keyof typeof SCAN_STATES): CommandDef<BoxScanArgs> =>
  defineCommand<BoxScanArgs>({
    name,
    args: boxScanArgs,
    minRole: "member",
    target: key,
    refs: (a) => [a.moveId],
    run: (ctx, ops) => changeBoxes(ctx, ops, (a) => ({ to: SCAN_STATES[name], at: a.at, ordered: true })),
  });

export const boxLoad = scan("box.load");
export const boxUnload = scan("box.unload");
export const boxUnpack = scan("box.unpack");

/** Takes a box out of a move (a tombstone); an unpacked box has moved already and stays. */
export const boxRemove = defineCommand<BoxRemoveArgs>({
  name: "box.remove",
  args: boxRemoveArgs,
  minRole: "member",
  target: key,
  async run(ctx, ops) {
    const seg = await loadSegment(ctx, ops);
    return eachOp(ctx, ops, (changes, op) => {
      const move = seg.moves.get(op.args.moveId.toLowerCase());
      const box = seg.boxes.get(key(op.args));
      const problem =
        moveProblem(op, move) ??
        (box ? versionProblem(op, box, "all", new Map()) : new NotFoundError("box of this move")) ??
        (box?.state === "unpacked" ? new ConflictError("That box is unpacked already; it stays in the move's record.") : null);
      if (changes.refused(problem, box)) return;
      const row = { ...box, deletedAt: ctx.now, rowVersion: box.rowVersion + 1, updatedAt: ctx.now };
      seg.boxes.delete(key(box));
      changes.update(moveBoxes, row, ["deletedAt", "rowVersion", "updatedAt"]);
      changes.applied(row.id, row.rowVersion, null);
    });
  },
});
