/** loan.update: a loan's due date or notes, with the rowVersion the device saw. */
import { defineOp } from "../op.js";

export const op = defineOp({
  name: "loan.update",
  shapes: ["loans"],
  apply: {
    loans: (state, op) => {
      const l = state.loans.get(op.args.id);
      if (!l) return;
      const p = op.args.patch;
      state.loans.set(l.id, {
        ...l,
        ...(p.dueOn !== undefined ? { dueOn: p.dueOn } : {}),
        ...(p.notes !== undefined ? { notes: p.notes } : {}),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.loan.update"),
});
