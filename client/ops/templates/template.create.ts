/**
 * template.create: a template saved from a thing, with the thing's type and values (the server
 * keeps no secret value in a template; the device never has them anyway). The things screens'
 * templates fill in when the server's row arrives: the server makes its payload.
 */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export const op = defineOp({
  name: "template.create",
  shapes: ["templates"],
  apply: {
    registries: (state, op, { accountOf, things }) => {
      const accountId = accountOf(op.locationId);
      const thing = things(op.args.thingId);
      if (!accountId || !thing?.typeId) return;
      state.templates.set(op.args.id, {
        id: op.args.id,
        accountId,
        name: op.args.name,
        typeId: thing.typeId,
        payload: { fields: thing.fields },
        locationIds: op.args.locationIds,
        ...stamps(op),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.template.create"),
});
