/** type_field.update: a field's label, unit, options or order. */
import { defineOp } from "../op.js";
import { defined, edit } from "../rows.js";

export const op = defineOp({
  name: "type_field.update",
  shapes: ["type_fields"],
  apply: {
    registries: (state, op) => edit(state.typeFields, op.args.id, (f) => ({ ...f, ...defined(op.args.patch), updatedAt: op.at })),
  },
  label: (_op, t) => t("op.type_field.update"),
});
