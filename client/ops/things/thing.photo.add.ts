/**
 * thing.photo.add: the photo is kept on the device (it shows from there at once, with no network)
 * beside the op, and the pusher uploads it before the op (blob-upload.ts).
 */
import { THING_PHOTOS_MAX } from "../../../shared/thing-photos.js";
import { defineOp } from "../op.js";
import { edit } from "../rows.js";

export const op = defineOp({
  name: "thing.photo.add",
  shapes: ["things"],
  apply: {
    local: (state, op) =>
      edit(state.things, op.args.id, (t) => {
        const photos = t.photoFileIds ?? [];
        const { fileId } = op.args;
        const has = photos.includes(fileId);
        // Past the limit the server refuses it (the drop then says why).
        if (!has && photos.length >= THING_PHOTOS_MAX) return { ...t, updatedAt: op.at };
        const coverFileId = op.args.cover || !t.coverFileId ? fileId : t.coverFileId;
        return { ...t, photoFileIds: has ? photos : [...photos, fileId], coverFileId, updatedAt: op.at };
      }),
  },
  label: (_op, t) => t("op.thing.photo.add"),
});
