/**
 * "My role in the locations I can see", written once. A location is visible to the actor when it
 * holds a live membership there and the location is among app_readable_locations(), the SQL
 * function (migrations/0002_rls_and_sync_log.sql) that applies the two-factor gate and intersects
 * a personal token's or MCP grant's locations with the person's own; withActor (server/db/actor.ts)
 * sets the settings it reads. Everything here runs inside an actor transaction.
 */
import { asc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Role } from "../../shared/roles.js";
import { type Tx, namedRows } from "../db/client.js";
import { locations, memberships } from "../db/schema/index.js";
import { seesMoney } from "./money.js";

/** The condition on memberships aliased `m` that makes its location visible to the actor. */
export const visibleMembership = sql`m.user_id = app_user_id() AND m.deleted_at IS NULL AND m.location_id = ANY(app_readable_locations())`;

/**
 * A scalar subquery: `{ locationId: role }` over the visible locations (NULL when there are none),
 * for a caller that needs the roles in the same round trip as something else (the executor's
 * transaction id).
 */
export const visibleRolesJson = sql`(SELECT jsonb_object_agg(m.location_id, m.role) FROM memberships m WHERE ${visibleMembership})`;

/** A scalar subquery: `{ locationId: accountId }` over the visible locations (their registries' owners). */
export const visibleAccountsJson = sql`(SELECT jsonb_object_agg(l.id, l.account_id) FROM locations l WHERE l.id = ANY(app_readable_locations()))`;

export function rolesFromJson(json: Record<string, Role> | null): Map<string, Role> {
  return new Map(Object.entries(json ?? {}));
}

/** The actor's role in each visible location (a token's write check, the executor). */
export async function visibleRoles(tx: Tx): Promise<Map<string, Role>> {
  const [row] = await namedRows<{ roles: Record<string, Role> | null }>(tx, "visible_roles", sql`SELECT ${visibleRolesJson} AS roles`);
  return rolesFromJson(row?.roles ?? null);
}

export type LocationRow = typeof locations.$inferSelect;

export interface VisibleLocation {
  location: LocationRow;
  role: Role;
  seesMoney: boolean;
}

const m = alias(memberships, "m");

/**
 * Every visible location with the actor's role in it, by name (then id): the location list, the
 * MCP list, the consent page and the shape scope read this.
 */
export async function visibleLocations(tx: Tx): Promise<VisibleLocation[]> {
  const found = await tx
    .select({ location: locations, role: m.role })
    .from(m)
    .innerJoin(locations, eq(locations.id, m.locationId))
    .where(visibleMembership)
    .orderBy(asc(locations.name), asc(locations.id));
  return found.map(({ location, role }) => ({ location, role, seesMoney: seesMoney(role, location.viewersSeeMoney) }));
}
