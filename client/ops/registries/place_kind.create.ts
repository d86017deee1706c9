/** place_kind.create: a new kind of place, in the owner account of the location it was made through. */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export const op = defineOp({
  name: "place_kind.create",
  shapes: ["place_kinds"],
  apply: {
    registries: (state, op, { accountOf }) => {
      const accountId = accountOf(op.locationId);
      if (!accountId) return;
      state.placeKinds.set(op.args.id, {
        id: op.args.id,
        accountId,
        name: op.args.name,
        icon: op.args.icon ?? "place",
        builtinKey: null,
        archivedAt: null,
        ...stamps(op),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.place_kind.create"),
});
