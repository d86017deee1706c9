/** thing.move: a thing put in another place or container. */
import { defineOp } from "../op.js";
import { edit } from "../rows.js";

export const op = defineOp({
  name: "thing.move",
  shapes: ["things"],
  apply: {
    local: (state, op) =>
      edit(state.things, op.args.id, (t) => ({ ...t, placeId: op.args.placeId ?? null, containerId: op.args.containerId ?? null, updatedAt: op.at })),
  },
  label: (_op, t) => t("op.thing.move"),
});
