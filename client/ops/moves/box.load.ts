/** box.load (a scan, queued by queueScan in queue.ts). */
import { defineOp } from "../op.js";
import { changeBox } from "./boxes.js";

export const op = defineOp({
  name: "box.load",
  shapes: ["move_boxes"],
  apply: { moves: changeBox },
  label: (_op, t) => t("op.box.load"),
});
