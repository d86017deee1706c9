/** brand.create: a new brand, in the owner account of the location it was made through. */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export const op = defineOp({
  name: "brand.create",
  shapes: ["brands"],
  apply: {
    registries: (state, op, { accountOf }) => {
      const accountId = accountOf(op.locationId);
      if (accountId) state.brands.set(op.args.id, { id: op.args.id, accountId, name: op.args.name, ...stamps(op), pending: true });
    },
  },
  label: (_op, t) => t("op.brand.create"),
});
