/** code.claim: a printed label claimed for a thing or a place becomes what it shows and answers to (the old code still resolves). */
import { defineOp } from "../op.js";
import { edit } from "../rows.js";

export const op = defineOp({
  name: "code.claim",
  shapes: ["codes", "things", "places", "inbox"],
  apply: {
    local: (state, op) => {
      const shortCode = op.args.code;
      if (op.args.kind === "thing") edit(state.things, op.args.id, (r) => ({ ...r, shortCode }));
      else edit(state.places, op.args.id, (r) => ({ ...r, shortCode }));
    },
  },
  label: (_op, t) => t("op.code.claim"),
});
