/** move.update: a move's name, target location or its end; only an active move changes. */
import { defineOp } from "../op.js";

export const op = defineOp({
  name: "move.update",
  shapes: ["moves"],
  apply: {
    moves: (state, op) => {
      const m = state.moves.get(op.args.id);
      if (!m || m.status !== "active") return;
      const p = op.args.patch;
      state.moves.set(m.id, {
        ...m,
        ...(p.name !== undefined ? { name: p.name.trim() } : {}),
        ...(p.toLocationId !== undefined ? { toLocationId: p.toLocationId, toLocationName: null } : {}),
        ...(p.status !== undefined ? { status: p.status, finishedAt: p.status === "finished" ? op.at : null } : {}),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.move.update"),
});
