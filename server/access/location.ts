/**
 * The actor's standing in one location, for reads and route-level checks: its role and whether it
 * sees money. A location the actor cannot see (absent, not a member, hidden behind two-factor,
 * outside a token's scope) is 404, so existence never leaks. Runs inside an actor transaction.
 */
import type { Role } from "../../shared/roles.js";
import { type Tx, namedRows, sql } from "../db/client.js";
import { NotFoundError } from "../errors/classes.js";
import { seesMoney } from "./money.js";
import { visibleMembership } from "./visible.js";

export interface LocationAccess {
  role: Role;
  seesMoney: boolean;
}

export async function locationAccess(tx: Tx, locationId: string): Promise<LocationAccess> {
  // A named statement: this runs before nearly every read, and planning it cost more than running it.
  const [row] = await namedRows<{ role: Role; viewers_see_money: boolean }>(
    tx,
    "location_access",
    sql`SELECT m.role, l.viewers_see_money
        FROM memberships m JOIN locations l ON l.id = m.location_id
        WHERE m.location_id = ${locationId} AND ${visibleMembership}`,
  );
  if (!row) throw new NotFoundError("location");
  return { role: row.role, seesMoney: seesMoney(row.role, row.viewers_see_money) };
}
