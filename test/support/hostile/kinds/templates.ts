/** templates: the tenant's thing saved as a template. */
import { sql } from "drizzle-orm";
import { ok, type ModuleKinds } from "./types.js";

export const templateKinds: ModuleKinds = {
  template: {
    table: "templates",
    make: async (t) =>
      void (t.ids.template = (
        await ok(
          t.owner.post(`/api/v1/things/${t.ids.thing}/save-as-template`, { name: `${t.name} Template ${t.next()}`, locationIds: [t.location] }),
          "template",
        )
      ).id),
    alive: (ids) => sql`EXISTS (SELECT 1 FROM templates WHERE id = ${ids.template} AND deleted_at IS NULL)`,
  },
};
