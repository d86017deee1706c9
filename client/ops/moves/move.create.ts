/** move.create: a move started with no signal; it shows active at once. */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export const op = defineOp({
  name: "move.create",
  shapes: ["moves"],
  apply: {
    moves: (state, op) => {
      const a = op.args;
      state.moves.set(a.id, {
        id: a.id,
        locationId: op.locationId,
        toLocationId: a.toLocationId ?? null,
        toLocationName: null,
        name: a.name.trim(),
        status: "active",
        createdBy: null,
        finishedAt: null,
        ...stamps(op),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.move.create"),
});
