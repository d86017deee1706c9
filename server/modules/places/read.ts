/** Reads of places: the response shape, one live place, every live place of a location. */
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Place } from "../../../shared/places.js";
import type { Tx } from "../../db/client.js";
import { locations, places, typeFields } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";

/**
 * A place as the API answers it; `hidden` are the keys of money fields the reader may not see
 * (a viewer where the location hides money), left out of `fields`.
 */
export const placeOut = (p: typeof places.$inferSelect, hidden: ReadonlySet<string> = new Set()): Place => ({
  id: p.id,
  locationId: p.locationId,
  parentId: p.parentId,
  kindId: p.kindId,
  name: p.name,
  isUnplaced: p.isUnplaced,
  shortCode: p.shortCode,
  fields: hidden.size ? Object.fromEntries(Object.entries(p.fields).filter(([k]) => !hidden.has(k))) : p.fields,
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

/** Keys of the money fields of the location's account's place kinds (what a viewer who may not see money does not get). */
async function moneyKeys(tx: Tx, locationId: string): Promise<Set<string>> {
  const found = await tx
    .select({ key: typeFields.key })
    .from(typeFields)
    .where(
      and(
        inArray(typeFields.accountId, tx.select({ a: locations.accountId }).from(locations).where(eq(locations.id, locationId))),
        eq(typeFields.kind, "money"),
        isNull(typeFields.typeId),
      ),
    );
  return new Set(found.map((f) => f.key));
}

/** Every live place of a location, by name (the caller has checked the location is visible, and whether the reader sees money). */
export async function placesOf(tx: Tx, locationId: string, seesMoney = true): Promise<Place[]> {
  const hidden = seesMoney ? new Set<string>() : await moneyKeys(tx, locationId);
  const found = await tx
    .select()
    .from(places)
    .where(and(eq(places.locationId, locationId), isNull(places.deletedAt)))
    .orderBy(asc(places.name), asc(places.id));
  return found.map((p) => placeOut(p, hidden));
}
