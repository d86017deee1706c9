/** inbox.accept: the item leaves the inbox; an accepted capture's draft thing becomes active, an accepted reading counts again. */
import { defineOp } from "../op.js";
import { edit } from "../rows.js";
import { INBOX_SHAPES, reviewReading } from "./review.js";

export const op = defineOp({
  name: "inbox.accept",
  shapes: INBOX_SHAPES,
  apply: {
    local: (state, op) => {
      const item = state.inbox.get(op.args.id);
      state.inbox.delete(op.args.id);
      if (item?.thingId) edit(state.things, item.thingId, (t) => (t.lifecycle === "draft" ? { ...t, lifecycle: "active" as const } : t));
    },
    meters: (state, op) => reviewReading(state, op.args.id, "ok", op.at),
  },
  label: (_op, t) => t("op.inbox.accept"),
});
