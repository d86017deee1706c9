/** tokens: a personal token of the owner's. */
import { sql } from "drizzle-orm";
import { ok, type ModuleKinds } from "./types.js";

export const tokenKinds: ModuleKinds = {
  token: {
    make: async (t) =>
      void (t.ids.token = (
        await ok(t.owner.post("/api/v1/tokens", { name: `${t.name} script ${t.next()}`, scope: "read", locationIds: [t.location] }), "token")
      ).id),
    alive: (ids) => sql`EXISTS (SELECT 1 FROM personal_tokens WHERE id = ${ids.token} AND revoked_at IS NULL)`,
  },
};
