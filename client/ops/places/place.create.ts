/** place.create: a new place shows at once under its parent. */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export const op = defineOp({
  name: "place.create",
  shapes: ["places"],
  apply: {
    local: (state, op) =>
      void state.places.set(op.args.id, {
        id: op.args.id,
        locationId: op.locationId,
        parentId: op.args.parentId ?? null,
        kindId: op.args.kindId ?? null,
        name: op.args.name,
        isUnplaced: false,
        fields: {},
        shortCode: null,
        ...stamps(op),
        pending: true,
      }),
  },
  label: (_op, t) => t("op.place.create"),
});
