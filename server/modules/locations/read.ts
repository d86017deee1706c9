/** Reads of locations: the actor's visible locations with its role in each (server/access/visible.ts). */
import type { Location } from "../../../shared/locations.js";
import { visibleLocations, type VisibleLocation } from "../../access/visible.js";
import type { Tx } from "../../db/client.js";
import { NotFoundError } from "../../errors/classes.js";

const locationOut = ({ location: l, role }: VisibleLocation): Location => ({
  id: l.id,
  name: l.name,
  role,
  isPersonal: l.isPersonal,
  requiresTwoFactor: l.requiresTwoFactor,
  viewersSeeMoney: l.viewersSeeMoney,
  rowVersion: l.rowVersion,
  createdAt: l.createdAt.toISOString(),
  updatedAt: l.updatedAt.toISOString(),
});

/** The actor's live locations, shared ones first, then by name (a stable sort keeps the name order). */
export async function myLocations(tx: Tx): Promise<Location[]> {
  const live = (await visibleLocations(tx)).filter((v) => !v.location.deletedAt);
  return live.sort((a, b) => Number(a.location.isPersonal) - Number(b.location.isPersonal)).map(locationOut);
}

/** One of them; 404 when it is not visible (or gone). */
export async function myLocation(tx: Tx, id: string): Promise<Location> {
  const found = (await myLocations(tx)).find((l) => l.id === id);
  if (!found) throw new NotFoundError("location");
  return found;
}
