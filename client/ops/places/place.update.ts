/** place.update: a place's name, parent, kind or fields (merged by key, as a thing's). */
import { defineOp } from "../op.js";
import { defined, edit, mergeFields } from "../rows.js";

export const op = defineOp({
  name: "place.update",
  shapes: ["places"],
  apply: {
    local: (state, op) => {
      const { fields, ...rest } = op.args.patch as typeof op.args.patch & { fields?: Record<string, unknown> };
      edit(state.places, op.args.id, (p) => ({ ...p, ...defined(rest), ...(fields ? { fields: mergeFields(p.fields, fields) } : {}), updatedAt: op.at }));
    },
  },
  label: (_op, t) => t("op.place.update"),
});
