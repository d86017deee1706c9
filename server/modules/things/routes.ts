/** /api/v1/locations/:id/things, /api/v1/things/:id (+ move). Writes go through the command path. */
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { pageOf } from "../../../shared/paging.js";
import { thingCreateBody, thingDetailSchema, thingListQuerySchema, thingPatchBody, thingSummarySchema } from "../../../shared/things.js";
import { rowVersionBody, writeResultSchema } from "../../../shared/writes.js";
import { executeOne } from "../registry.js";
import { withActor } from "../../db/actor.js";
import type { Tx } from "../../db/client.js";
import { defineRoute, type RouteDef } from "../../http/route.js";
import type { RouteDeps } from "../deps.js";
import { locationAccess } from "../../access/location.js";
import { detail, findThing, listThings } from "./read.js";

const byId = z.object({ id: uuidSchema });

export function thingRoutes({ db, config }: RouteDeps): RouteDef[] {
  const opts = { undoWindowMs: config.undoWindowMs };
  const locationOf = (actor: Parameters<typeof withActor>[1], id: string) => withActor(db, actor, async (tx) => (await findThing(tx, id)).locationId);
  const showIn = async (tx: Tx, userId: string, id: string) => detail(tx, userId, await findThing(tx, id));
  const show = (actor: Parameters<typeof withActor>[1], id: string) => withActor(db, actor, (tx) => showIn(tx, actor.userId, id));

  return [
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/things",
      summary: "List things (q, placeId, typeId; paged)",
      tag: "things",
      params: byId,
      query: thingListQuerySchema,
      response: pageOf(thingSummarySchema),
      handler: ({ actor, params, query }) =>
        withActor(db, actor, async (tx) => {
          await locationAccess(tx, params.id);
          return listThings(tx, params.id, query);
        }),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/things",
      summary: "Create a thing",
      tag: "things",
      status: 201,
      params: byId,
      body: thingCreateBody,
      response: thingDetailSchema,
      async handler({ actor, params, body, res }) {
        const id = body.id ?? uuidv7();
        const { verdict, result } = await executeOne(db, actor, { name: "thing.create", locationId: params.id, args: { ...body, id } }, opts, (tx) =>
          showIn(tx, actor.userId, id),
        );
        res.setHeader("x-txid", verdict.txid);
        return result;
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/things/:id",
      summary: "A thing with its path",
      tag: "things",
      params: byId,
      response: thingDetailSchema,
      handler: ({ actor, params }) => show(actor, params.id),
    }),
    defineRoute({
      method: "patch",
      path: "/api/v1/things/:id",
      summary: "Change a thing (carries the rowVersion you saw; stale is 409 version_conflict)",
      tag: "things",
      params: byId,
      body: thingPatchBody,
      response: thingDetailSchema,
      async handler({ actor, params, body, res }) {
        const { rowVersion, ...patch } = body;
        const locationId = await locationOf(actor, params.id);
        const { verdict, result } = await executeOne(
          db,
          actor,
          { name: "thing.update", locationId, baseVersion: rowVersion, args: { id: params.id, patch } },
          opts,
          (tx) => showIn(tx, actor.userId, params.id),
        );
        res.setHeader("x-txid", verdict.txid);
        return result;
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/things/:id",
      summary: "Delete a thing (a tombstone; undoable in the window)",
      tag: "things",
      params: byId,
      body: rowVersionBody,
      response: writeResultSchema,
      async handler({ actor, params, body }) {
        const locationId = await locationOf(actor, params.id);
        const v = await executeOne(db, actor, { name: "thing.delete", locationId, baseVersion: body.rowVersion, args: { id: params.id } }, opts);
        return { id: v.entityId, rowVersion: v.rowVersion, txid: v.txid, eventId: v.eventId };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/things/:id/move",
      summary: "Move a thing to a place or into a container",
      tag: "things",
      params: byId,
      body: z
        .object({ placeId: uuidSchema.optional(), containerId: uuidSchema.optional(), rowVersion: z.number().int().min(1).optional() })
        .strict()
        .refine((b) => (b.placeId === undefined) !== (b.containerId === undefined), "give exactly one of placeId or containerId"),
      response: thingDetailSchema,
      async handler({ actor, params, body, res }) {
        const { rowVersion, ...dest } = body;
        const locationId = await locationOf(actor, params.id);
        const { verdict, result } = await executeOne(
          db,
          actor,
          { name: "thing.move", locationId, args: { id: params.id, ...dest }, ...(rowVersion !== undefined ? { baseVersion: rowVersion } : {}) },
          opts,
          (tx) => showIn(tx, actor.userId, params.id),
        );
        res.setHeader("x-txid", verdict.txid);
        return result;
      },
    }),
  ] as RouteDef[];
}
