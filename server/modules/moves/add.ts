/**
 * box.add: a live container of the move's location becomes a box of the move, numbered next (the
 * server numbers boxes, under the move's lock: two phones adding boxes offline never collide).
 * Adding a box that is in the move already changes nothing; one in another active move is refused.
 */
import { boxAddArgs, type BoxAddArgs } from "../../../shared/moves.js";
import { eachOp } from "../../commands/runs.js";
import { defineCommand } from "../../commands/types.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { moveBoxes } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { destinations, key, loadSegment, moveProblem, type BoxRow } from "./box-rows.js";

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
    return eachOp(ctx, ops, (changes, op) => {
      const { args, input } = op;
      const move = seg.moves.get(args.moveId.toLowerCase());
      const problem = moveProblem(op, move);
      if (changes.refused(problem, move)) return;
      const existing = seg.boxes.get(key(args));
      // Added twice (two phones, or a retry): the box is in the move already; nothing changes.
      if (existing) return changes.applied(existing.id, existing.rowVersion, null);
      const containerId = args.containerId.toLowerCase();
      const thing = things.get(containerId);
      if (!thing || thing.deleted || thing.locationId !== input.locationId)
        return changes.refuse(new NotFoundError("container (a live container of the move's location)"));
      if (!thing.isContainer) return changes.refuse(new ValidationError("containerId: that thing is not a container; only containers can be boxes of a move."));
      const other = activeMove.get(containerId);
      if (other && other.moveId !== move.id) return changes.refuse(new ConflictError(`That box is already in the active move "${other.name}".`));
      const d = dest(move, args.destination ?? null);
      if (d instanceof Error) return changes.refuse(d);
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
    });
  },
});
