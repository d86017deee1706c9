/** inbox.dismiss: the item leaves the inbox; a dismissed capture's draft thing goes with it, a dismissed reading is rejected. */
import { defineOp } from "../op.js";
import { INBOX_SHAPES, reviewReading } from "./review.js";

export const op = defineOp({
  name: "inbox.dismiss",
  shapes: INBOX_SHAPES,
  apply: {
    local: (state, op) => {
      const item = state.inbox.get(op.args.id);
      state.inbox.delete(op.args.id);
      if (item?.kind === "draft" && item.thingId && state.things.get(item.thingId)?.lifecycle === "draft") state.things.delete(item.thingId);
    },
    meters: (state, op) => reviewReading(state, op.args.id, "rejected", op.at),
  },
  label: (_op, t) => t("op.inbox.dismiss"),
});
