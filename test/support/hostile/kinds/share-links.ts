/** share-links: a link to the tenant's thing. */
import { sql } from "drizzle-orm";
import { ok, type ModuleKinds } from "./types.js";

export const shareLinkKinds: ModuleKinds = {
  shareLink: {
    make: async (t) =>
      void (t.ids.shareLink = (
        await ok(t.owner.post("/api/v1/share-links", { scope: "thing", targetId: t.ids.thing, title: `${t.name} link ${t.next()}` }), "share link")
      ).id),
    alive: (ids) => sql`EXISTS (SELECT 1 FROM share_links WHERE id = ${ids.shareLink} AND revoked_at IS NULL)`,
  },
};
