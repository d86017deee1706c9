/** thing.field.confirm ("Confirm"): a person says a value read from a photo is right; an `extracted` value becomes `confirmed`. */
import type { ThingRow } from "../../db/rows.js";
import { defineOp } from "../op.js";
import { edit } from "../rows.js";

/** The thing after confirming (its other suggestions stay); the same row when the value is not `extracted`. */
export function confirmField<T extends ThingRow>(thing: T, field: string): T {
  const entry = thing.fieldStatus?.[field];
  if (entry?.state !== "extracted") return thing;
  return { ...thing, fieldStatus: { ...thing.fieldStatus, [field]: { ...entry, state: "confirmed" } } };
}

export const op = defineOp({
  name: "thing.field.confirm",
  shapes: ["things"],
  apply: {
    local: (state, op) => edit(state.things, op.args.id, (t) => confirmField(t, op.args.field)),
  },
  label: (_op, t) => t("op.thing.field.confirm"),
});
