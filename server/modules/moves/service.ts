/**
 * Moves for routes: each write is one actor transaction that finds the move (404 when the actor
 * cannot see it), runs the same command a pushed op runs, and reads the answer back.
 */
import { v7 as uuidv7 } from "uuid";
import type { z } from "zod";
import type { Move, MoveBox, boxAddBody, boxPatchBody, moveCreateBody, movePatchBody } from "../../../shared/moves.js";
import type { WriteResult } from "../../../shared/writes.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { writeOne, writeResult } from "../write.js";
import { findBox, findMove, findMoveRow, listMoves } from "./read.js";

export function createMove(deps: ServiceDeps, actor: Actor, locationId: string, body: z.infer<typeof moveCreateBody>): Promise<Written<Move>> {
  const id = body.id ?? uuidv7();
  return writeOne(
    deps,
    actor,
    () => ({ name: "move.create", locationId, args: { ...body, id } }),
    (tx) => findMove(tx, id),
  );
}

export function getMove({ db }: ServiceDeps, actor: Actor, id: string): Promise<Move> {
  return withActor(db, actor, (tx) => findMove(tx, id));
}

export function locationMoves({ db }: ServiceDeps, actor: Actor, locationId: string, q: { limit: number; cursor?: string | undefined }) {
  return withActor(db, actor, (tx) => listMoves(tx, locationId, q));
}

export function updateMove(deps: ServiceDeps, actor: Actor, id: string, body: z.infer<typeof movePatchBody>): Promise<Written<Move>> {
  const { rowVersion, ...patch } = body;
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "move.update", locationId: (await findMoveRow(tx, id)).locationId, baseVersion: rowVersion, args: { id, patch } }),
    (tx) => findMove(tx, id),
  );
}

export function addBox(deps: ServiceDeps, actor: Actor, moveId: string, body: z.infer<typeof boxAddBody>): Promise<Written<MoveBox>> {
  const id = body.id ?? uuidv7();
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "box.add", locationId: (await findMoveRow(tx, moveId)).locationId, args: { ...body, id, moveId } }),
    (tx) => findBox(tx, moveId, body.containerId.toLowerCase()),
  );
}

export function updateBox(deps: ServiceDeps, actor: Actor, moveId: string, containerId: string, body: z.infer<typeof boxPatchBody>): Promise<Written<MoveBox>> {
  const { rowVersion, ...change } = body;
  return writeOne(
    deps,
    actor,
    async (tx) => ({
      name: "box.update",
      locationId: (await findMoveRow(tx, moveId)).locationId,
      baseVersion: rowVersion,
      args: { ...change, moveId, containerId, at: new Date().toISOString() },
    }),
    (tx) => findBox(tx, moveId, containerId),
  );
}

export function removeBox(deps: ServiceDeps, actor: Actor, moveId: string, containerId: string, rowVersion?: number): Promise<Written<WriteResult>> {
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "box.remove", locationId: (await findMoveRow(tx, moveId)).locationId, baseVersion: rowVersion, args: { moveId, containerId } }),
    writeResult,
  );
}
