/** place_kind.update: a rename, a new icon, an archive or its undoing. */
import { defineOp } from "../op.js";
import { defined, edit } from "../rows.js";
import { archivedAt } from "./archive.js";

export const op = defineOp({
  name: "place_kind.update",
  shapes: ["place_kinds"],
  apply: {
    registries: (state, op) => {
      const { archived, ...rest } = op.args.patch;
      edit(state.placeKinds, op.args.id, (k) => ({ ...k, ...defined(rest), archivedAt: archivedAt(archived, k.archivedAt, op.at), updatedAt: op.at }));
    },
  },
  label: (_op, t) => t("op.place_kind.update"),
});
