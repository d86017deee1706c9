/** type.create: a new type shows in the editor at once, in the owner account of the location it was made through. */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export const op = defineOp({
  name: "type.create",
  shapes: ["types"],
  apply: {
    registries: (state, op, { accountOf }) => {
      const accountId = accountOf(op.locationId);
      if (!accountId) return;
      const a = op.args;
      state.types.set(a.id, {
        id: a.id,
        accountId,
        parentId: a.parentId ?? null,
        groupIds: a.groupIds ?? [],
        isGroup: a.isGroup ?? false,
        icon: a.icon ?? "thing",
        name: a.name,
        builtinKey: null,
        containerByDefault: a.containerByDefault ?? false,
        archivedAt: null,
        ...stamps(op),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.type.create"),
});
