/** managed-accounts: a managed account of the tenant's location. */
import { sql } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { ok, type ModuleKinds } from "./types.js";

export const managedAccountKinds: ModuleKinds = {
  managedUser: {
    make: async (t) => {
      const username = `${t.name.toLowerCase()}_kid_${t.next()}_${uuidv7().slice(-6)}`;
      t.ids.managedUser = (
        await ok(t.owner.post(`/api/v1/locations/${t.location}/managed-accounts`, { username, displayName: `${t.name} Kid` }), "managed account")
      ).id;
      t.scope.userIds.push(t.ids.managedUser);
    },
    alive: (ids) => sql`EXISTS (SELECT 1 FROM managed_accounts WHERE user_id = ${ids.managedUser})`,
  },
};
