/** box.remove: a box taken off a move, with the rowVersion the device saw. */
import { defineOp } from "../op.js";
import { boxKey } from "./boxes.js";

export const op = defineOp({
  name: "box.remove",
  shapes: ["move_boxes"],
  apply: {
    moves: (state, op) => void state.boxes.delete(boxKey(op.args.moveId, op.args.containerId)),
  },
  label: (_op, t) => t("op.box.remove"),
});
