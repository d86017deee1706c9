/**
 * History for routes and MCP tools: a thing's entries as the actor may see them, and undo, one
 * actor transaction: find the event's location, run history.undo, read the new entry back.
 */
import type { HistoryEntry } from "../../../shared/history.js";
import { locationAccess } from "../../access/location.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { writeOne } from "../write.js";
import { findThing } from "../things/read.js";
import { entityHistory, eventLocation, historyEntry } from "./read.js";

export type HistoryQuery = Parameters<typeof entityHistory>[2];

/** A thing's history, newest first; a deleted thing keeps its history (it can be undone). */
export function thingHistory(
  { db }: ServiceDeps,
  actor: Actor,
  thingId: string,
  query: HistoryQuery,
): Promise<{ items: HistoryEntry[]; next_cursor: string | null }> {
  return withActor(db, actor, async (tx) => {
    const thing = await findThing(tx, thingId, { includeDeleted: true });
    const reader = { ...(await locationAccess(tx, thing.locationId)), userId: actor.userId };
    return entityHistory(tx, { type: "thing", id: thing.id }, query, reader);
  });
}

export function undo(deps: ServiceDeps, actor: Actor, eventId: string): Promise<Written<{ item: HistoryEntry; rowVersion: number }>> {
  return writeOne(
    deps,
    actor,
    async (tx) => ({ name: "history.undo", locationId: await eventLocation(tx, eventId), args: { eventId } }),
    async (tx, v) => ({ item: await historyEntry(tx, v.eventId!), rowVersion: v.rowVersion }),
  );
}
