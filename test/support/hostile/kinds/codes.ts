/** codes: a label sheet (never deleted) and the tenant's thing's short code (made with it). */
import { ok, type ModuleKinds } from "./types.js";

export const codeKinds: ModuleKinds = {
  labelSheet: {
    make: async (t) => void (t.ids.labelSheet = (await ok(t.owner.post(`/api/v1/locations/${t.location}/label-sheets`, { count: 1 }), "label sheet")).id),
  },
  code: { madeWith: "thing" },
};
