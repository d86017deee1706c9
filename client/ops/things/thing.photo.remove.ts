/** thing.photo.remove (queued by queuePhotoChange, queue.ts): removing the cover makes the next photo the cover (VE7). */
import { defineOp } from "../op.js";
import { edit } from "../rows.js";

export const op = defineOp({
  name: "thing.photo.remove",
  shapes: ["things"],
  apply: {
    local: (state, op) =>
      edit(state.things, op.args.id, (t) => {
        const rest = (t.photoFileIds ?? []).filter((f) => f !== op.args.fileId);
        return { ...t, photoFileIds: rest, coverFileId: t.coverFileId === op.args.fileId ? (rest[0] ?? null) : t.coverFileId, updatedAt: op.at };
      }),
  },
  label: (_op, t) => t("op.thing.photo.remove"),
});
