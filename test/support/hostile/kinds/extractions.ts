/** extractions: an AI reading of the tenant's thing's file. */
import { sql } from "drizzle-orm";
import { ok, type ModuleKinds } from "./types.js";

export const extractionKinds: ModuleKinds = {
  extraction: {
    make: async (t) =>
      void (t.ids.extraction = (await ok(t.owner.post(`/api/v1/things/${t.ids.thing}/extractions`, { fileIds: [t.ids.file] }), "extraction")).id),
    alive: (ids) => sql`EXISTS (SELECT 1 FROM extractions e JOIN things t ON t.id = e.thing_id WHERE e.id = ${ids.extraction} AND t.deleted_at IS NULL)`,
  },
};
