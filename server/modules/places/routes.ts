/** /api/v1/locations/:id/places and /api/v1/places/:id. */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { pageOf } from "../../../shared/paging.js";
import { placeCreateBody, placePatchBody, placeSchema } from "../../../shared/places.js";
import { rowVersionBody, writeResultSchema } from "../../../shared/writes.js";
import { defineRoute, defineWrite, type RouteDef, type RouteDeps } from "../../http/route.js";
import { serviceDeps } from "../deps.js";
import { createPlace, deletePlace, listPlaces, updatePlace } from "./service.js";

const byId = z.object({ id: uuidSchema });

export function placeRoutes(deps: RouteDeps): RouteDef[] {
  const service = serviceDeps(deps);
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/places",
      summary: "Every place of a location (a flat list; parentId builds the tree)",
      tag: "places",
      params: byId,
      response: pageOf(placeSchema),
      handler: async ({ actor, params }) => ({ items: await listPlaces(service, actor, params.id), next_cursor: null }),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/locations/:id/places",
      summary: "Create a place",
      tag: "places",
      status: 201,
      params: byId,
      body: placeCreateBody,
      response: placeSchema,
      handler: ({ actor, params, body }) => createPlace(service, actor, params.id, body),
    }),
    defineWrite({
      method: "patch",
      path: "/api/v1/places/:id",
      summary: "Rename, re-parent or change the kind of a place",
      tag: "places",
      params: byId,
      body: placePatchBody,
      response: placeSchema,
      handler: ({ actor, params, body }) => updatePlace(service, actor, params.id, body),
    }),
    defineWrite({
      method: "delete",
      path: "/api/v1/places/:id",
      summary: "Delete an empty place (a tombstone; undoable in the window). A place that holds places or things is 409 conflict",
      tag: "places",
      params: byId,
      body: rowVersionBody,
      bodyOptional: true,
      response: writeResultSchema,
      handler: ({ actor, params, body }) => deletePlace(service, actor, params.id, body.rowVersion),
    }),
  ] as RouteDef[];
}
