/**
 * Places for routes and MCP tools alike. Each write is one actor transaction: find the place's
 * location, run the command, read the answer back (server/commands/executor.ts runOne).
 */
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type { Place, placeCreateBody, placePatchBody } from "../../../shared/places.js";
import { locationAccess } from "../../access/location.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { writeOne, writeResult } from "../write.js";
import type { WriteResult } from "../../../shared/writes.js";
import { findPlace, placeOut, placesOf } from "./read.js";

/** Every live place of a location the actor can see (404 otherwise). */
export function listPlaces({ db }: ServiceDeps, actor: Actor, locationId: string): Promise<Place[]> {
  return withActor(db, actor, async (tx) => {
    const access = await locationAccess(tx, locationId);
    return placesOf(tx, locationId, access.seesMoney);
  });
}

export function createPlace(deps: ServiceDeps, actor: Actor, locationId: string, body: z.infer<typeof placeCreateBody>): Promise<Written<Place>> {
  const id = body.id ?? uuidv7();
  return writeOne(
    deps,
    actor,
    () => ({ name: "place.create", locationId, args: { ...body, id } }),
    async (tx) => placeOut(await findPlace(tx, id)),
  );
}

export function updatePlace(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof placePatchBody>): Promise<Written<Place>> {
  const { rowVersion, ...patch } = body;
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "place.update", locationId: (await findPlace(tx, id)).locationId, baseVersion: rowVersion, args: { id, patch } }),
    async (tx) => placeOut(await findPlace(tx, id)),
  );
}

/** Deletes an empty place (409 conflict, saying what it holds, otherwise). */
export function deletePlace(deps: ServiceDeps, actor: Actor, id: string, rowVersion?: number): Promise<Written<WriteResult>> {
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "place.delete", locationId: (await findPlace(tx, id)).locationId, baseVersion: rowVersion, args: { id } }),
    writeResult,
  );
}
