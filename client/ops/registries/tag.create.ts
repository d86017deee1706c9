/** tag.create: a new tag, in the owner account of the location it was made through. */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export const op = defineOp({
  name: "tag.create",
  shapes: ["tags"],
  apply: {
    registries: (state, op, { accountOf }) => {
      const accountId = accountOf(op.locationId);
      if (accountId)
        state.tags.set(op.args.id, { id: op.args.id, accountId, name: op.args.name, colour: op.args.colour ?? null, ...stamps(op), pending: true });
    },
  },
  label: (_op, t) => t("op.tag.create"),
});
