/**
 * Locations for routes: the signed-in user's view (/me, the list, one location) and the writes,
 * each one actor transaction that runs the command and reads the location back.
 */
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type { Location, LocationCreateArgs, Me, locationPatchBody } from "../../../shared/locations.js";
import { type Actor, withActor } from "../../db/actor.js";
import { NotFoundError } from "../../errors/classes.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { writeOne } from "../write.js";
import { findMyLocation, me, myLocation, myLocations } from "./read.js";

export const whoAmI = ({ db }: ServiceDeps, actor: Actor): Promise<Me> => withActor(db, actor, (tx) => me(tx, actor.userId));

export const listLocations = ({ db }: ServiceDeps, actor: Actor): Promise<Location[]> => withActor(db, actor, myLocations);

export const getLocation = ({ db }: ServiceDeps, actor: Actor, id: string): Promise<Location> => withActor(db, actor, (tx) => myLocation(tx, id));

/** A new location in the actor's own account; the command makes the actor its owner. */
export function createLocation(deps: ServiceDeps, actor: Actor, body: LocationCreateArgs): Promise<Written<Location>> {
  const id = body.id ?? uuidv7();
  return writeOne(
    deps,
    actor,
    () => ({ name: "location.create", locationId: id, args: { ...body, id } }),
    (tx) => myLocation(tx, id),
  );
}

export async function updateLocation(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof locationPatchBody>): Promise<Written<Location>> {
  const { rowVersion, ...patch } = body;
  const { result, txid } = await writeOne(
    deps,
    actor,
    () => ({ name: "location.update", locationId: id, args: { id, patch }, ...(rowVersion !== undefined ? { baseVersion: rowVersion } : {}) }),
    (tx) => findMyLocation(tx, id),
  );
  // An owner without a proven second factor who makes the location require one no longer sees
  // it: the change stands (it commits) and the answer is 404, as reading it now would be.
  if (!result) throw new NotFoundError("location");
  return { result, txid };
}
