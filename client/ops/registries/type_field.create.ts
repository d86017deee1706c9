/** type_field.create: a new field of a type or a place kind, in the owner account of the location it was made through. */
import { defineOp } from "../op.js";
import { stamps } from "../rows.js";

export const op = defineOp({
  name: "type_field.create",
  shapes: ["type_fields"],
  apply: {
    registries: (state, op, { accountOf }) => {
      const accountId = accountOf(op.locationId);
      if (!accountId) return;
      const a = op.args;
      state.typeFields.set(a.id, {
        id: a.id,
        accountId,
        typeId: "typeId" in a ? a.typeId : null,
        placeKindId: "placeKindId" in a ? a.placeKindId : null,
        key: a.key,
        label: a.label,
        labelKey: null,
        kind: a.kind,
        unit: a.unit ?? null,
        options: a.options ?? null,
        repeatable: a.repeatable ?? false,
        required: a.required ?? false,
        secret: a.secret ?? false,
        sort: a.sort ?? 0,
        archivedAt: null,
        ...stamps(op),
        pending: true,
      });
    },
  },
  label: (_op, t) => t("op.type_field.create"),
});
