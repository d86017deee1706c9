/** webhooks: a webhook of the tenant's location. */
import { sql } from "drizzle-orm";
import { ok, type ModuleKinds } from "./types.js";

export const webhookKinds: ModuleKinds = {
  webhook: {
    table: "webhooks",
    make: async (t) =>
      void (t.ids.webhook = (
        await ok(
          t.owner.post(`/api/v1/locations/${t.location}/webhooks`, { url: `https://hooks.example/${t.name}/${t.next()}`, events: ["thing.created"] }),
          "webhook",
        )
      ).id),
    alive: (ids) => sql`EXISTS (SELECT 1 FROM webhooks WHERE id = ${ids.webhook})`,
  },
};
