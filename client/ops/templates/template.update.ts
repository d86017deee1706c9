/** template.update: a rename, or where the template is offered (the list is replaced whole). */
import { defineOp } from "../op.js";
import { defined, edit } from "../rows.js";

export const op = defineOp({
  name: "template.update",
  shapes: ["templates"],
  apply: {
    local: (state, op) => {
      const { name, locationIds } = op.args.patch;
      edit(state.templates, op.args.id, (t) => ({ ...t, ...(name !== undefined ? { name } : {}), ...(locationIds ? { locationIds } : {}), updatedAt: op.at }));
    },
    registries: (state, op) => edit(state.templates, op.args.id, (t) => ({ ...t, ...defined(op.args.patch), updatedAt: op.at })),
  },
  label: (_op, t) => t("op.template.update"),
});
