/** place.delete: a place that still holds something is refused by the server; the drop brings it back. */
import { defineOp } from "../op.js";

export const op = defineOp({
  name: "place.delete",
  shapes: ["places"],
  apply: {
    local: (state, op) => void state.places.delete(op.args.id),
  },
  label: (_op, t) => t("op.place.delete"),
});
