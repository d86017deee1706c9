/** box.update: a box's destination (or state) set by hand. */
import type { DestinationInput } from "../../../shared/moves.js";
import type { Op } from "../../../sync/ops.js";
import type { InventoryDb } from "../../db/database.js";
import type { MoveBoxRow, MoveRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { defineOp } from "../op.js";
import { changeBox, UNPACK_SHAPES } from "./boxes.js";

export function queueBoxDestination(
  db: InventoryDb,
  move: Pick<MoveRow, "id" | "locationId">,
  box: Pick<MoveBoxRow, "containerId">,
  destination: DestinationInput,
): Promise<Op> {
  return enqueue(db, { name: "box.update", locationId: move.locationId, args: { moveId: move.id, containerId: box.containerId, destination } });
}

export const op = defineOp({
  name: "box.update",
  shapes: UNPACK_SHAPES,
  apply: { moves: changeBox },
  label: (_op, t) => t("op.box.update"),
});
