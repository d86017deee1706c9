/** places: a shelf of the tenant's location. */
import { sql } from "drizzle-orm";
import { ok, type ModuleKinds } from "./types.js";

export const placeKinds: ModuleKinds = {
  place: {
    table: "places",
    make: async (t) =>
      void (t.ids.place = (await ok(t.owner.post(`/api/v1/locations/${t.location}/places`, { name: `${t.name} Shelf ${t.next()}` }), "place")).id),
    alive: (ids) => sql`EXISTS (SELECT 1 FROM places WHERE id = ${ids.place} AND deleted_at IS NULL)`,
  },
};
