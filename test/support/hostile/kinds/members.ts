/** members: a member of the tenant's location, and an invitation to it. */
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { rows } from "../../../../server/db/client.js";
import { memberships } from "../../../../server/db/schema/index.js";
import { ok, type ModuleKinds } from "./types.js";

export const memberKinds: ModuleKinds = {
  memberUser: {
    make: async (t) => {
      const m = await t.svc.signedIn(`${t.name} Member ${t.next()}`);
      await t.db.insert(memberships).values({ id: uuidv7(), locationId: t.location, userId: m.userId, role: "member" });
      t.ids.memberUser = m.userId;
      t.scope.userIds.push(m.userId);
    },
    alive: (ids, location) =>
      sql`EXISTS (SELECT 1 FROM memberships WHERE user_id = ${ids.memberUser} AND location_id = ${location} AND deleted_at IS NULL AND role = 'member')`,
    rowVersion: async (db, id) => {
      const [m] = await rows<{ v: number }>(
        db,
        sql`SELECT row_version AS v FROM memberships WHERE user_id = ${id} AND deleted_at IS NULL ORDER BY created_at DESC LIMIT 1`,
      );
      return m?.v ?? 1;
    },
  },
  invite: {
    make: async (t) => void (t.ids.invite = (await ok(t.owner.post(`/api/v1/locations/${t.location}/invites`, { role: "viewer" }), "invite")).id),
    alive: (ids) => sql`EXISTS (SELECT 1 FROM invites WHERE id = ${ids.invite} AND revoked_at IS NULL AND accepted_at IS NULL)`,
  },
};
