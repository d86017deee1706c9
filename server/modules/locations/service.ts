/**
 * Locations for routes: the signed-in user's view (/me, the list, one location) and the writes,
 * each one actor transaction that runs the command and reads the location back.
 */
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type { Location, LocationCreateArgs, Me, locationPatchBody } from "../../../shared/locations.js";
import type { Actor } from "../../auth/actor.js";
import { withActor } from "../../db/actor.js";
import { NotFoundError } from "../../errors/classes.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { runOne } from "../registry.js";
import { findMyLocation, me, myLocation, myLocations } from "./read.js";

export const whoAmI = ({ db }: ServiceDeps, actor: Actor): Promise<Me> => withActor(db, actor, (tx) => me(tx, actor.userId));

export const listLocations = ({ db }: ServiceDeps, actor: Actor): Promise<Location[]> => withActor(db, actor, myLocations);

export const getLocation = ({ db }: ServiceDeps, actor: Actor, id: string): Promise<Location> => withActor(db, actor, (tx) => myLocation(tx, id));

/** A new location in the actor's own account; the command makes the actor its owner. */
export function createLocation({ db, undoWindowMs }: ServiceDeps, actor: Actor, body: LocationCreateArgs): Promise<Written<Location>> {
  const id = body.id ?? uuidv7();
  return withActor(db, actor, async (tx) => {
    const v = await runOne(tx, actor, { name: "location.create", locationId: id, args: { ...body, id } }, { undoWindowMs });
    return { result: await myLocation(tx, id), txid: v.txid };
  });
}

export async function updateLocation(
  { db, undoWindowMs }: ServiceDeps,
  actor: Actor,
  id: string,
  body: z.infer<typeof locationPatchBody>,
): Promise<Written<Location>> {
  const { rowVersion, ...patch } = body;
  const { result, txid } = await withActor(db, actor, async (tx) => {
    const v = await runOne(
      tx,
      actor,
      { name: "location.update", locationId: id, args: { id, patch }, ...(rowVersion !== undefined ? { baseVersion: rowVersion } : {}) },
      { undoWindowMs },
    );
    return { result: await findMyLocation(tx, id), txid: v.txid };
  });
  // An owner without a proven second factor who makes the location require one no longer sees
  // it: the change stands (it commits) and the answer is 404, as reading it now would be.
  if (!result) throw new NotFoundError("location");
  return { result, txid };
}
