/** box.update: a box's destination (or state) set by hand. */
import { defineOp } from "../op.js";
import { changeBox, UNPACK_SHAPES } from "./boxes.js";

export const op = defineOp({
  name: "box.update",
  shapes: UNPACK_SHAPES,
  apply: { moves: changeBox },
  label: (_op, t) => t("op.box.update"),
});
