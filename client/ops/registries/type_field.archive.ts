/** type_field.archive: the field stops being offered; its values stay on the things that have them. */
import { defineOp } from "../op.js";
import { edit } from "../rows.js";

export const op = defineOp({
  name: "type_field.archive",
  shapes: ["type_fields"],
  apply: {
    registries: (state, op) => edit(state.typeFields, op.args.id, (f) => ({ ...f, archivedAt: f.archivedAt ?? op.at, updatedAt: op.at })),
  },
  label: (_op, t) => t("op.type_field.archive"),
});
