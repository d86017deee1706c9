/** secrets: the secret field of the tenant's type, what reveals name (`/secrets/{fieldKey}`); a key, never removed. */
import { ok, type ModuleKinds } from "./types.js";

export const secretKinds: ModuleKinds = {
  fieldKey: {
    make: async (t) => {
      await ok(t.owner.post(`/api/v1/types/${t.ids.type}/fields`, { key: "pin", label: `${t.name} PIN`, kind: "text", secret: true }), "secret field");
      t.ids.fieldKey = "pin";
    },
  },
};
