/** box.remove: a box taken off a move, with the rowVersion the device saw. */
import type { Op } from "../../../sync/ops.js";
import type { InventoryDb } from "../../db/database.js";
import type { MoveBoxRow, MoveRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { defineOp } from "../op.js";
import { boxKey, moveBase } from "./boxes.js";

export function queueBoxRemove(db: InventoryDb, move: Pick<MoveRow, "id" | "locationId">, box: Pick<MoveBoxRow, "containerId" | "rowVersion">): Promise<Op> {
  return enqueue(db, { name: "box.remove", locationId: move.locationId, args: { moveId: move.id, containerId: box.containerId }, ...moveBase(box) });
}

export const op = defineOp({
  name: "box.remove",
  shapes: ["move_boxes"],
  apply: {
    moves: (state, op) => void state.boxes.delete(boxKey(op.args.moveId, op.args.containerId)),
  },
  label: (_op, t) => t("op.box.remove"),
});
