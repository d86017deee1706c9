/** /api/v1/locations/:id/places and /api/v1/places/:id. */
import { pageOf } from "../../../shared/paging.js";
import { placeCreateBody, placePatchBody, placeSchema } from "../../../shared/places.js";
import { rowVersionBody, writeResultSchema } from "../../../shared/writes.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { createPlace, deletePlace, listPlaces, updatePlace } from "./service.js";

export function placeRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/places",
      summary: "Every place of a location (a flat list; parentId builds the tree)",
      tag: "places",
      params: idParams,
      response: pageOf(placeSchema),
      handler: async ({ actor, params }) => ({ items: await listPlaces(service, actor, params.id), next_cursor: null }),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/locations/:id/places",
      summary: "Create a place",
      tag: "places",
      status: 201,
      params: idParams,
      body: placeCreateBody,
      response: placeSchema,
      handler: ({ actor, params, body }) => createPlace(service, actor, params.id, body),
    }),
    defineWrite({
      method: "patch",
      path: "/api/v1/places/:id",
      summary: "Rename, re-parent or change the kind of a place",
      tag: "places",
      params: idParams,
      body: placePatchBody,
      response: placeSchema,
      handler: ({ actor, params, body }) => updatePlace(service, actor, params.id, body),
    }),
    defineWrite({
      method: "delete",
      path: "/api/v1/places/:id",
      summary: "Delete an empty place (a tombstone; undoable in the window). A place that holds places or things is 409 conflict",
      tag: "places",
      params: idParams,
      body: rowVersionBody,
      bodyOptional: true,
      response: writeResultSchema,
      handler: ({ actor, params, body }) => deletePlace(service, actor, params.id, body.rowVersion),
    }),
  ] as RouteDef[];
}
