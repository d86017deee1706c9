/**
 * The box ops of a move: add, update (destination, state), the scans in the truck (load, unload,
 * unpack) and remove. A mover scans offline and pushes later, perhaps twice, perhaps from two
 * phones: the same scan twice answers applied with nothing changed, and a load or unload older
 * than the box's last state change is outrun by it (the later scan wins, in whatever order they
 * arrive). Only a transition that makes no sense (loading an unpacked box) is refused.
 */
import {
  boxAddArgs,
  boxRemoveArgs,
  boxScanArgs,
  boxTransition,
  boxUpdateArgs,
  SCAN_STATES,
  type BoxAddArgs,
  type BoxRemoveArgs,
  type BoxScanArgs,
  type BoxState,
  type BoxUpdateArgs,
  type DestinationInput,
} from "../../../shared/moves.js";
import { SegmentChanges } from "../../commands/segment.js";
import { defineCommand, type CommandContext, type CommandDef, type Op, type Verdict } from "../../commands/types.js";
import { versionProblem } from "../../commands/versions.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { moveBoxes } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import { unpackBox } from "./transfer.js";

type BoxRow = typeof moveBoxes.$inferSelect;
interface MoveRef {
  id: string;
  locationId: string;
  toLocationId: string | null;
  toLocationName: string | null;
  status: string;
  name: string;
}
type BoxOpArgs = { moveId: string; containerId: string };

const key = (a: BoxOpArgs) => `${a.moveId.toLowerCase()}/${a.containerId.toLowerCase()}`;

/** What a segment of box ops reads: the moves (locked: box numbers are handed out under this lock) and their live boxes. */
async function loadSegment(ctx: CommandContext, ops: Op<BoxOpArgs>[]) {
  const moveIds = [...new Set(ops.map((o) => o.args.moveId.toLowerCase()))];
  const found = await rows<MoveRef>(
    ctx.tx,
    sql`SELECT id, location_id AS "locationId", to_location_id AS "toLocationId", to_location_name AS "toLocationName", status, name FROM moves
        WHERE id = ANY(${uuidArray(moveIds)}) AND deleted_at IS NULL ORDER BY id FOR UPDATE`,
  );
  const boxes = await ctx.tx
    .select()
    .from(moveBoxes)
    .where(sql`${moveBoxes.moveId} = ANY(${uuidArray(moveIds)}) AND ${moveBoxes.deletedAt} IS NULL`)
    .for("update");
  return { moves: new Map(found.map((m) => [m.id, m])), boxes: new Map(boxes.map((b) => [key(b), b])) };
}

/** The move of an op, or why the op cannot touch it. */
function moveProblem(op: Op<BoxOpArgs>, move: MoveRef | undefined): AppError | null {
  if (!move || move.locationId !== op.input.locationId) return new NotFoundError("move");
  if (move.status !== "active") return new ConflictError(`The move "${move.name}" is ${move.status}; its boxes cannot change any more.`);
  return null;
}

/** Destinations as stored, checked against the places of the location the box goes to. */
async function destinations(ctx: CommandContext, items: { move: MoveRef; destination: DestinationInput | undefined }[]) {
  const placeIds = [...new Set(items.map((i) => i.destination?.placeId?.toLowerCase()).filter((x): x is string => !!x))];
  const found = placeIds.length
    ? await rows<{ id: string; locationId: string; name: string }>(
        ctx.tx,
        sql`SELECT id, location_id AS "locationId", name FROM places WHERE id = ANY(${uuidArray(placeIds)}) AND deleted_at IS NULL`,
      )
    : [];
  const places = new Map(found.map((p) => [p.id, p]));
  return (move: MoveRef, d: DestinationInput): { placeId: string | null; name: string | null } | AppError => {
    if (!d) return { placeId: null, name: null };
    const placeId = d.placeId?.toLowerCase() ?? null;
    if (!placeId) return { placeId: null, name: d.name ?? null };
    const place = places.get(placeId);
    const goesTo = move.toLocationId ?? move.locationId;
    if (!place || place.locationId !== goesTo) return new NotFoundError("destination place (a place of the location the boxes go to)");
    return { placeId, name: d.name ?? place.name };
  };
}

export const boxAdd = defineCommand<BoxAddArgs>({
  name: "box.add",
  args: boxAddArgs,
  minRole: "member",
  target: key,
  refs: (a) => [a.moveId, a.containerId],
  creates: true,
  async run(ctx, ops) {
    const seg = await loadSegment(ctx, ops);
    const containerIds = [...new Set(ops.map((o) => o.args.containerId.toLowerCase()))];
    const [containers, busy, numbers] = await Promise.all([
      rows<{ id: string; locationId: string; isContainer: boolean; deleted: boolean }>(
        ctx.tx,
        sql`SELECT id, location_id AS "locationId", is_container AS "isContainer", deleted_at IS NOT NULL AS deleted FROM things WHERE id = ANY(${uuidArray(containerIds)})`,
      ),
      rows<{ containerId: string; moveId: string; name: string }>(
        ctx.tx,
        sql`SELECT b.container_id AS "containerId", b.move_id AS "moveId", m.name FROM move_boxes b JOIN moves m ON m.id = b.move_id
            WHERE b.container_id = ANY(${uuidArray(containerIds)}) AND b.deleted_at IS NULL AND m.status = 'active' AND m.deleted_at IS NULL`,
      ),
      rows<{ moveId: string; n: number }>(
        ctx.tx,
        sql`SELECT move_id AS "moveId", max(number)::int AS n FROM move_boxes WHERE move_id = ANY(${uuidArray([...seg.moves.keys()])}) GROUP BY move_id`,
      ),
    ]);
    const things = new Map(containers.map((c) => [c.id, c]));
    const activeMove = new Map(busy.map((b) => [b.containerId, b]));
    const next = new Map(numbers.map((r) => [r.moveId, r.n]));
    const dest = await destinations(
      ctx,
      ops.map((o) => ({ move: seg.moves.get(o.args.moveId.toLowerCase())!, destination: o.args.destination })),
    );
    const changes = new SegmentChanges(ctx);
    for (const op of ops) {
      const { args, input } = op;
      const move = seg.moves.get(args.moveId.toLowerCase());
      const problem = moveProblem(op, move);
      if (problem || !move) {
        changes.refuse(problem!);
        continue;
      }
      const existing = seg.boxes.get(key(args));
      // Added twice (two phones, or a retry): the box is in the move already; nothing changes.
      if (existing) {
        changes.applied(existing.id, existing.rowVersion, null);
        continue;
      }
      const containerId = args.containerId.toLowerCase();
      const thing = things.get(containerId);
      if (!thing || thing.deleted || thing.locationId !== input.locationId) {
        changes.refuse(new NotFoundError("container (a live container of the move's location)"));
        continue;
      }
      if (!thing.isContainer) {
        changes.refuse(new ValidationError("containerId: that thing is not a container; only containers can be boxes of a move."));
        continue;
      }
      const other = activeMove.get(containerId);
      if (other && other.moveId !== move.id) {
        changes.refuse(new ConflictError(`That box is already in the active move "${other.name}".`));
        continue;
      }
      const d = dest(move, args.destination ?? null);
      if (d instanceof Error) {
        changes.refuse(d);
        continue;
      }
      const number = (next.get(move.id) ?? 0) + 1;
      next.set(move.id, number);
      const row: BoxRow = {
        id: args.id.toLowerCase(),
        locationId: move.locationId,
        moveId: move.id,
        containerId,
        number,
        state: "packed",
        stateAt: args.at ? new Date(args.at) : ctx.now,
        destinationPlaceId: d.placeId,
        destinationName: d.name,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      };
      seg.boxes.set(key(row), row);
      activeMove.set(containerId, { containerId, moveId: move.id, name: move.name });
      changes.insert(moveBoxes, row);
      changes.applied(row.id, 1, null);
    }
    return changes.write();
  },
});

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
  const changes = new SegmentChanges(ctx);
  for (const op of ops) {
    const move = seg.moves.get(op.args.moveId.toLowerCase());
    const box = seg.boxes.get(key(op.args));
    const problem = moveProblem(op, move) ?? (box ? null : new NotFoundError("box of this move"));
    if (problem || !move || !box) {
      changes.refuse(problem!);
      continue;
    }
    const c = what(op.args);
    const fields = [...(c.to ? ["state"] : []), ...(c.destination !== undefined ? ["destination"] : [])];
    const stale = versionProblem(op, box, fields, new Map());
    if (stale) {
      changes.refuse(stale);
      continue;
    }
    const next: BoxRow = { ...box };
    if (c.destination !== undefined) {
      const d = dest(move, c.destination);
      if (d instanceof Error) {
        changes.refuse(d);
        continue;
      }
      next.destinationPlaceId = d.placeId;
      next.destinationName = d.name;
    }
    const at = c.at ? new Date(c.at) : ctx.now;
    if (c.to) {
      const step = boxTransition(box.state, c.to);
      if (step === "refused") {
        changes.refuse(new ConflictError(`Box ${box.number} is already unpacked; it cannot be ${c.to === "packed" ? "unloaded" : "loaded"} again.`));
        continue;
      }
      const outrun = c.ordered && c.to !== "unpacked" && at.getTime() < box.stateAt.getTime();
      if (step === "ok" && !outrun) {
        if (c.to === "unpacked") {
          const refused = await unpackBox(ctx, move, next);
          if (refused) {
            changes.refuse(refused);
            continue;
          }
        }
        next.state = c.to;
        next.stateAt = at;
      }
    }
    const same = next.state === box.state && next.destinationPlaceId === box.destinationPlaceId && next.destinationName === box.destinationName;
    if (same) {
      changes.applied(box.id, box.rowVersion, null);
      continue;
    }
    const row = { ...next, rowVersion: box.rowVersion + 1, updatedAt: ctx.now };
    seg.boxes.set(key(row), row);
    changes.update(moveBoxes, row, ["state", "stateAt", "destinationPlaceId", "destinationName", "rowVersion", "updatedAt"]);
    changes.applied(row.id, row.rowVersion, null);
  }
  return changes.write();
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
    const changes = new SegmentChanges(ctx);
    for (const op of ops) {
      const move = seg.moves.get(op.args.moveId.toLowerCase());
      const box = seg.boxes.get(key(op.args));
      const problem =
        moveProblem(op, move) ??
        (box ? versionProblem(op, box, "all", new Map()) : new NotFoundError("box of this move")) ??
        (box?.state === "unpacked" ? new ConflictError("That box is unpacked already; it stays in the move's record.") : null);
      if (problem || !box) {
        changes.refuse(problem!);
        continue;
      }
      const row = { ...box, deletedAt: ctx.now, rowVersion: box.rowVersion + 1, updatedAt: ctx.now };
      seg.boxes.delete(key(box));
      changes.update(moveBoxes, row, ["deletedAt", "rowVersion", "updatedAt"]);
      changes.applied(row.id, row.rowVersion, null);
    }
    return changes.write();
  },
});
