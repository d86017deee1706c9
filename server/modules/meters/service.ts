/**
 * Meters and readings for routes (and later MCP tools). Each write is one actor transaction: find
 * the thing or meter (404 when the actor cannot see it), run the command in its location, read
 * the answer back (server/modules/write.ts).
 */
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type { Meter, Proof, Reading, meterCreateBody, meterPatchBody, readingCreateBody } from "../../../shared/meters.js";
import type { WriteResult } from "../../../shared/writes.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Tx } from "../../db/client.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { findThing } from "../things/read.js";
import { writeOne, writeResult } from "../write.js";
import { findMeter, findReading, listProofs, listReadings, metersOfThing, metersOut, readingsOut, type PageQuery } from "./read.js";

const showMeter = async (tx: Tx, id: string): Promise<Meter> => (await metersOut(tx, [await findMeter(tx, id)]))[0]!;

export function getMeter({ db }: ServiceDeps, actor: Actor, id: string): Promise<Meter> {
  return withActor(db, actor, (tx) => showMeter(tx, id));
}

export function listMeters({ db }: ServiceDeps, actor: Actor, thingId: string, query: PageQuery): Promise<{ items: Meter[]; next_cursor: string | null }> {
  return withActor(db, actor, async (tx) => {
    await findThing(tx, thingId);
    const page = await metersOfThing(tx, thingId, query);
    return { items: await metersOut(tx, page.rows), next_cursor: page.next_cursor };
  });
}

export function createMeter(deps: ServiceDeps, actor: Actor, thingId: string, body: z.infer<typeof meterCreateBody>): Promise<Written<Meter>> {
  const id = body.id ?? uuidv7();
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "meter.create", locationId: (await findThing(tx, thingId)).locationId, args: { ...body, id, thingId } }),
    (tx) => showMeter(tx, id),
  );
}

export function updateMeter(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof meterPatchBody>): Promise<Written<Meter>> {
  const { rowVersion, ...patch } = body;
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "meter.update", locationId: (await findMeter(tx, id)).locationId, baseVersion: rowVersion, args: { id, patch } }),
    (tx) => showMeter(tx, id),
  );
}

/** A tombstone: the answer is the write result. */
export function deleteMeter(deps: ServiceDeps, actor: Actor, id: string, rowVersion?: number): Promise<Written<WriteResult>> {
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "meter.delete", locationId: (await findMeter(tx, id)).locationId, baseVersion: rowVersion, args: { id } }),
    writeResult,
  );
}

/** A reading of a visible meter; takenAt defaults to now (the server's clock, for a reading typed in online). */
export function captureReading(deps: ServiceDeps, actor: Actor, meterId: string, body: z.infer<typeof readingCreateBody>): Promise<Written<Reading>> {
  const id = body.id ?? uuidv7();
  const args = { ...body, id, meterId, takenAt: body.takenAt ?? new Date().toISOString() };
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "reading.capture", locationId: (await findMeter(tx, meterId)).locationId, args }),
    async (tx) => (await readingsOut(tx, [await findReading(tx, id)]))[0]!,
  );
}

export function getReadings({ db }: ServiceDeps, actor: Actor, meterId: string, q: PageQuery): Promise<{ items: Reading[]; next_cursor: string | null }> {
  return withActor(db, actor, async (tx) => listReadings(tx, (await findMeter(tx, meterId)).id, q));
}

export function getProofs({ db }: ServiceDeps, actor: Actor, meterId: string, q: PageQuery): Promise<{ items: Proof[]; next_cursor: string | null }> {
  return withActor(db, actor, async (tx) => listProofs(tx, (await findMeter(tx, meterId)).id, q));
}
