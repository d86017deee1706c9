/** thing.photo.cover (queued by queuePhotoChange, queue.ts): only a photo the thing has can be its cover. */
import { defineOp } from "../op.js";
import { edit } from "../rows.js";

export const op = defineOp({
  name: "thing.photo.cover",
  shapes: ["things"],
  apply: {
    local: (state, op) =>
      edit(state.things, op.args.id, (t) => ({
        ...t,
        ...((t.photoFileIds ?? []).includes(op.args.fileId) ? { coverFileId: op.args.fileId } : {}),
        updatedAt: op.at,
      })),
  },
  label: (_op, t) => t("op.thing.photo.cover"),
});
