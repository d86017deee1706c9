/** thing.update: a thing's edits, queued with the rowVersion the device saw (sync/SPEC.md VE4). */
import type { ThingPatch } from "../../../shared/things.js";
import { defineOp } from "../op.js";
import { defined, edit, mergeFields } from "../rows.js";

/** A thing.update patch (custom `fields` merge by key; `tagIds` replaces the list). */
export type ThingEdit = ThingPatch;

export const op = defineOp({
  name: "thing.update",
  shapes: ["things"],
  apply: {
    local: (state, op) => {
      const { quantity, fields, ...rest } = op.args.patch;
      edit(state.things, op.args.id, (t) => ({
        ...t,
        ...defined(rest),
        ...(quantity !== undefined ? { quantity: String(quantity) } : {}),
        ...(fields ? { fields: mergeFields(t.fields, fields) } : {}),
        updatedAt: op.at,
      }));
    },
  },
  label: (_op, t) => t("op.thing.update"),
});
