/** inbox.merge: a capture that is a thing already; the draft goes and its photos join that thing. */
import { defineOp } from "../op.js";
import { edit } from "../rows.js";
import { withPhotosOf } from "../things/photos.js";
import { INBOX_SHAPES } from "./review.js";

export const op = defineOp({
  name: "inbox.merge",
  shapes: INBOX_SHAPES,
  apply: {
    local: (state, op) => {
      const item = state.inbox.get(op.args.id);
      state.inbox.delete(op.args.id);
      const draft = item?.thingId ? state.things.get(item.thingId) : undefined;
      if (item?.thingId) state.things.delete(item.thingId);
      if (draft?.photoFileIds?.length) edit(state.things, op.args.into, (t) => withPhotosOf(t, draft));
    },
  },
  label: (_op, t) => t("op.inbox.merge"),
});
