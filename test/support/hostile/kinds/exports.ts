/** exports: a queued export of the tenant's location. */
import { sql } from "drizzle-orm";
import { ok, type ModuleKinds } from "./types.js";

export const exportKinds: ModuleKinds = {
  export: {
    make: async (t) => {
      // The owner's unfinished exports are limited: older ones are stood down so a new one can start.
      await t.db.execute(sql`UPDATE exports SET status = 'cancelled' WHERE requested_by = ${t.owner.userId} AND status IN ('queued', 'running')`);
      t.ids.export = (await ok(t.owner.post("/api/v1/exports", { scope: "location", locationId: t.location }), "export")).id;
    },
    alive: (ids) => sql`EXISTS (SELECT 1 FROM exports WHERE id = ${ids.export} AND status = 'queued')`,
  },
};
