/** box.unpack (a scan, queued by queueScan in queue.ts): an unpacked box stays unpacked, whatever scan comes later. */
import { defineOp } from "../op.js";
import { changeBox, UNPACK_SHAPES } from "./boxes.js";

export const op = defineOp({
  name: "box.unpack",
  shapes: UNPACK_SHAPES,
  apply: { moves: changeBox },
  label: (_op, t) => t("op.box.unpack"),
});
