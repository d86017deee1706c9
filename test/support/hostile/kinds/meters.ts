/** meters: a meter on the tenant's thing, and a reading of it. */
import { sql } from "drizzle-orm";
import { ok, type ModuleKinds } from "./types.js";

export const meterKinds: ModuleKinds = {
  meter: {
    table: "meters",
    make: async (t) =>
      void (t.ids.meter = (
        await ok(t.owner.post(`/api/v1/things/${t.ids.thing}/meters`, { kind: "water", unit: "m3", label: `${t.name} Meter ${t.next()}` }), "meter")
      ).id),
    alive: (ids) =>
      sql`EXISTS (SELECT 1 FROM meters m JOIN things t ON t.id = m.thing_id WHERE m.id = ${ids.meter} AND m.deleted_at IS NULL AND t.deleted_at IS NULL)`,
  },
  reading: {
    make: async (t) => void (t.ids.reading = (await ok(t.owner.post(`/api/v1/meters/${t.ids.meter}/readings`, { value: String(t.next()) }), "reading")).id),
    alive: (ids) => sql`EXISTS (SELECT 1 FROM readings r JOIN meters m ON m.id = r.meter_id WHERE r.id = ${ids.reading} AND m.deleted_at IS NULL)`,
  },
};
