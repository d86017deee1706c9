/** type.update: a rename, a new icon or parent, an archive or its undoing. */
import { defineOp } from "../op.js";
import { defined, edit } from "../rows.js";
import { archivedAt } from "./archive.js";

export const op = defineOp({
  name: "type.update",
  shapes: ["types"],
  apply: {
    registries: (state, op) => {
      const { archived, ...rest } = op.args.patch;
      edit(state.types, op.args.id, (t) => ({ ...t, ...defined(rest), archivedAt: archivedAt(archived, t.archivedAt, op.at), updatedAt: op.at }));
    },
  },
  label: (_op, t) => t("op.type.update"),
});
