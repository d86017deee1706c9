/**
 * loan.return: the loan shows returned at once. The server joins a split thing back or moves the
 * thing to where it was put; the device shows that when the server's rows arrive.
 */
import { defineOp } from "../op.js";

export const op = defineOp({
  name: "loan.return",
  shapes: ["loans", "things"],
  apply: {
    loans: (state, op) => {
      const l = state.loans.get(op.args.id);
      if (!l || l.returnedAt) return;
      const to = op.args.returnPlace;
      state.loans.set(l.id, {
        ...l,
        returnedAt: op.args.at ?? op.at,
        ...(to ? { returnPlaceId: to.type === "place" ? to.id : null, returnContainerId: to.type === "thing" ? to.id : null } : {}),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.loan.return"),
});
