/**
 * Things for routes and MCP tools alike. Each write is one actor transaction: find the thing's
 * location, run the command (server/commands/executor.ts runOne), read the detail back.
 */
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type { ThingDetail, ThingSummary, thingCreateBody, thingPatchBody } from "../../../shared/things.js";
import type { WriteResult } from "../../../shared/writes.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { CommandInput } from "../../commands/types.js";
import type { Tx } from "../../db/client.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { writeOne, writeResult } from "../write.js";
import { detail, findThing, listThings, type ListQuery } from "./read.js";

/** Where a thing goes: one of a place or a container (the command's args refuse both or neither). */
export interface Destination {
  placeId?: string | undefined;
  containerId?: string | undefined;
}

const show = async (tx: Tx, actor: Actor, id: string) => detail(tx, actor.userId, await findThing(tx, id));

/** A page of a visible location's things (404 when the location is not visible). */
export function listThingsIn(
  { db }: ServiceDeps,
  actor: Actor,
  locationId: string,
  query: ListQuery,
): Promise<{ items: ThingSummary[]; next_cursor: string | null }> {
  return listThings(db, actor, locationId, query);
}

export function getThing({ db }: ServiceDeps, actor: Actor, id: string): Promise<ThingDetail> {
  return withActor(db, actor, (tx) => show(tx, actor, id));
}

/** The command's location is the thing's (404 when it is not visible). */
const onThing = (id: string, input: (locationId: string) => CommandInput) => async (tx: Tx) => input((await findThing(tx, id)).locationId);

export function createThing(deps: ServiceDeps, actor: Actor, locationId: string, body: z.infer<typeof thingCreateBody>): Promise<Written<ThingDetail>> {
  const id = body.id ?? uuidv7();
  return writeOne(
    deps,
    actor,
    () => ({ name: "thing.create", locationId, args: { ...body, id } }),
    (tx) => show(tx, actor, id),
  );
}

export function updateThing(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof thingPatchBody>): Promise<Written<ThingDetail>> {
  const { rowVersion, ...patch } = body;
  return writeOne(
    deps,
    actor,
    onThing(id, (locationId) => ({ name: "thing.update", locationId, baseVersion: rowVersion, args: { id, patch } })),
    (tx) => show(tx, actor, id),
  );
}

export function moveThing(deps: ServiceDeps, actor: Actor, id: string, dest: Destination, rowVersion?: number): Promise<Written<ThingDetail>> {
  return writeOne(
    deps,
    actor,
    onThing(id, (locationId) => ({ name: "thing.move", locationId, args: { id, ...dest }, ...(rowVersion !== undefined ? { baseVersion: rowVersion } : {}) })),
    (tx) => show(tx, actor, id),
  );
}

/** A tombstone: the answer is the write result (the thing itself is gone from reads). */
export function deleteThing(deps: ServiceDeps, actor: Actor, id: string, rowVersion?: number): Promise<Written<WriteResult>> {
  return writeOne(
    deps,
    actor,
    onThing(id, (locationId) => ({ name: "thing.delete", locationId, baseVersion: rowVersion, args: { id } })),
    writeResult,
  );
}

/** The photo ops of a thing through REST: a rowVersion sent is checked strictly (sync/SPEC.md VE6); the answer is the thing. */
export function changePhotos(
  deps: ServiceDeps,
  actor: Actor,
  id: string,
  change: { name: "thing.photo.add" | "thing.photo.remove" | "thing.photo.cover"; fileId: string; cover?: boolean | undefined },
  rowVersion: number | undefined,
): Promise<Written<ThingDetail>> {
  const { name, fileId, cover } = change;
  return writeOne(
    deps,
    actor,
    onThing(id, (locationId) => ({ name, locationId, baseVersion: rowVersion, args: { id, fileId, ...(cover !== undefined ? { cover } : {}) } })),
    (tx) => show(tx, actor, id),
  );
}
