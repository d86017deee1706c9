/** template.delete: the template is no longer offered, here or in the editor. */
import { defineOp } from "../op.js";

export const op = defineOp({
  name: "template.delete",
  shapes: ["templates"],
  apply: {
    local: (state, op) => void state.templates.delete(op.args.id),
    registries: (state, op) => void state.templates.delete(op.args.id),
  },
  label: (_op, t) => t("op.template.delete"),
});
