/** thing.delete: the thing leaves the device's lists at once; a refused delete (a stale version, a full box) brings it back with its drop. */
import { defineOp } from "../op.js";

export const op = defineOp({
  name: "thing.delete",
  shapes: ["things"],
  apply: {
    local: (state, op) => void state.things.delete(op.args.id),
  },
  label: (_op, t) => t("op.thing.delete"),
});
