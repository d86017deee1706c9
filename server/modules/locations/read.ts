/** Reads of locations: /me and the actor's visible locations with its role in each (server/access/visible.ts). */
import { eq } from "drizzle-orm";
import type { Location, Me } from "../../../shared/locations.js";
import { visibleLocations, type VisibleLocation } from "../../access/visible.js";
import type { Tx } from "../../db/client.js";
import { users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";

const locationOut = ({ location: l, role }: VisibleLocation): Location => ({
  id: l.id,
  name: l.name,
  role,
  isPersonal: l.isPersonal,
  requiresTwoFactor: l.requiresTwoFactor,
  viewersSeeMoney: l.viewersSeeMoney,
  secretRevealRoles: l.secretRevealRoles,
  rowVersion: l.rowVersion,
  createdAt: l.createdAt.toISOString(),
  updatedAt: l.updatedAt.toISOString(),
});

/** The actor's live locations, shared ones first, then by name (a stable sort keeps the name order). */
export async function myLocations(tx: Tx): Promise<Location[]> {
  const live = (await visibleLocations(tx)).filter((v) => !v.location.deletedAt);
  return live.sort((a, b) => Number(a.location.isPersonal) - Number(b.location.isPersonal)).map(locationOut);
}

/** One of them, or undefined when it is not visible (or gone). */
export async function findMyLocation(tx: Tx, id: string): Promise<Location | undefined> {
  return (await myLocations(tx)).find((l) => l.id === id);
}

/** One of them; 404 when it is not visible (or gone). */
export async function myLocation(tx: Tx, id: string): Promise<Location> {
  const found = await findMyLocation(tx, id);
  if (!found) throw new NotFoundError("location");
  return found;
}

/** The signed-in user as /me shows them, with their locations. */
export async function me(tx: Tx, userId: string): Promise<Me> {
  const [u] = await tx
    .select({ id: users.id, name: users.name, email: users.email, username: users.username, twoFactorEnabled: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, userId));
  if (!u) throw new NotFoundError("user");
  // Managed accounts have a synthetic address that is never shown (spec "Managed accounts").
  const email = u.email.endsWith("@managed.invalid") ? null : u.email;
  return {
    user: { id: u.id, name: u.name, email, username: u.username, twoFactorEnabled: u.twoFactorEnabled },
    locations: await myLocations(tx),
  };
}
