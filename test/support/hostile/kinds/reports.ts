/** reports: an inventory report job (never deleted: only its file expires). */
import { ok, type ModuleKinds } from "./types.js";

export const reportKinds: ModuleKinds = {
  report: {
    make: async (t) => void (t.ids.report = (await ok(t.owner.post("/api/v1/reports/inventory", { scope: { locationId: t.location } }), "report", [202])).id),
  },
};
