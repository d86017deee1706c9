/** thing.create: a thing made on the device shows at once, filled from its template where the device holds one. */
import { defineOp } from "../op.js";
import { newThing } from "./new-thing.js";

export const op = defineOp({
  name: "thing.create",
  shapes: ["things"],
  apply: {
    local: (state, op) => void state.things.set(op.args.id, newThing(op, state.templates)),
  },
  label: (_op, t) => t("op.thing.create"),
});
