/** Reads of places: the response shape, one live place, every live place of a location. */
import { and, asc, eq, isNull } from "drizzle-orm";
import type { Place } from "../../../shared/places.js";
import type { Tx } from "../../db/client.js";
import { places } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";

export const placeOut = (p: typeof places.$inferSelect): Place => ({
  id: p.id,
  locationId: p.locationId,
  parentId: p.parentId,
  kindId: p.kindId,
  name: p.name,
  isUnplaced: p.isUnplaced,
  shortCode: p.shortCode,
  rowVersion: p.rowVersion,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

/** A visible, live place, or 404 whether it is absent, deleted or in a location the actor cannot see. */
export async function findPlace(tx: Tx, id: string) {
  const [p] = await tx
    .select()
    .from(places)
    .where(and(eq(places.id, id), isNull(places.deletedAt)));
  if (!p) throw new NotFoundError("place");
  return p;
}

/** Every live place of a location, by name (the caller has checked the location is visible). */
export async function placesOf(tx: Tx, locationId: string): Promise<Place[]> {
  const found = await tx
    .select()
    .from(places)
    .where(and(eq(places.locationId, locationId), isNull(places.deletedAt)))
    .orderBy(asc(places.name), asc(places.id));
  return found.map(placeOut);
}
