/**
 * The location a write on an account's registry acts through. Registries (types, fields, place
 * kinds, brands, tags, templates) belong to the owner account, but every write runs in a location,
 * as an op of that location: its role check, its history entry. A REST route that names a registry
 * row by id picks the actor's visible location of the row's account where its role is highest, so
 * an admin of any of the account's locations manages the account's registries; a role too low is
 * refused by the command itself (403 naming the role needed).
 */
import { ROLES, type Role } from "../../shared/roles.js";
import { type Tx, namedRows, sql } from "../db/client.js";
import { NotFoundError } from "../errors/classes.js";
import { visibleMembership } from "./visible.js";

/** `prefer`: locations to take on a tie of roles (the location a request names, those a template is offered in). */
export async function actingLocation(tx: Tx, accountId: string, prefer: readonly string[] = []): Promise<string> {
  const found = await namedRows<{ location_id: string; role: Role }>(
    tx,
    "registry_acting_location",
    sql`SELECT m.location_id, m.role FROM memberships m JOIN locations l ON l.id = m.location_id
        WHERE l.account_id = ${accountId} AND ${visibleMembership}`,
  );
  const rank = (r: { location_id: string; role: Role }) => ROLES.indexOf(r.role) * 2 + (prefer.includes(r.location_id) ? 0 : 1);
  const best = found.sort((a, b) => rank(a) - rank(b))[0];
  if (!best) throw new NotFoundError("location");
  return best.location_id;
}
