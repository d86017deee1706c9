/** Kinds of id that routes of no module take: the OAuth grants' (server/oauth/) and sync push's op ids. */
import { sql } from "drizzle-orm";
import { rows } from "../../../../server/db/client.js";
import { grantAndCode } from "../../../../server/oauth/grants.js";
import type { ModuleKinds } from "./types.js";

export const noModuleKinds: ModuleKinds = {
  grant: {
    make: async (t) => {
      await grantAndCode(
        t.db,
        { userId: t.owner.userId, clientName: `${t.name} app ${t.next()}`, scopes: ["svc:read"], locationIds: [t.location], mfaProven: false },
        {
          clientId: "https://client.example/app.json",
          redirectUri: "https://client.example/cb",
          codeChallenge: "x".repeat(43),
          resource: `${t.svc.config.publicUrl.origin}/mcp`,
        },
      );
      const [grant] = await rows<{ id: string }>(
        t.db,
        sql`SELECT id FROM oauth_grants WHERE user_id = ${t.owner.userId} AND revoked_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      );
      t.ids.grant = grant!.id;
    },
    alive: (ids) => sql`EXISTS (SELECT 1 FROM oauth_grants WHERE id = ${ids.grant} AND revoked_at IS NULL)`,
  },
  // The op that captured the tenant's inbox draft (inbox.ts makes it).
  opId: { madeWith: "inboxItem" },
};
