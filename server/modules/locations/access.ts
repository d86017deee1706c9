/**
 * The actor's standing in a location, for reads and route-level checks: its role and whether it
 * sees money. A location the actor cannot see (absent, not a member, hidden behind two-factor,
 * outside a token's scope) is 404, so existence never leaks. Runs inside an actor transaction.
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Role } from "../../../shared/roles.js";
import type { Tx } from "../../db/client.js";
import { locations, memberships } from "../../db/schema/index.js";
import { NotFoundError } from "../../http/errors.js";

export interface LocationAccess {
  role: Role;
  seesMoney: boolean;
}

export async function locationAccess(tx: Tx, locationId: string): Promise<LocationAccess> {
  const [row] = await tx
    .select({ role: memberships.role, viewersSeeMoney: locations.viewersSeeMoney })
    .from(memberships)
    .innerJoin(locations, eq(locations.id, memberships.locationId))
    .where(
      and(
        sql`${memberships.userId} = app_user_id()`,
        eq(memberships.locationId, locationId),
        isNull(memberships.deletedAt),
        sql`${memberships.locationId} = ANY(app_readable_locations())`,
      ),
    );
  if (!row) throw new NotFoundError("location");
  return { role: row.role, seesMoney: row.role !== "viewer" || row.viewersSeeMoney };
}
