/** /api/v1/locations/:id/moves, /api/v1/moves/:id and a move's boxes. Writes go through the service. */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { boxAddBody, boxPatchBody, boxSchema, moveCreateBody, moveListQuery, movePatchBody, moveSchema } from "../../../shared/moves.js";
import { pageOf } from "../../../shared/paging.js";
import { rowVersionBody, writeResultSchema } from "../../../shared/writes.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { addBox, createMove, getMove, locationMoves, removeBox, updateBox, updateMove } from "./service.js";

const byBox = z.object({ id: uuidSchema, containerId: uuidSchema });

export function moveRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineWrite({
      method: "post",
      path: "/api/v1/locations/:id/moves",
      summary: "Start a move of boxes out of this location (members and above); toLocationId: another location of the same owner",
      tag: "moves",
      status: 201,
      params: idParams,
      body: moveCreateBody,
      response: moveSchema,
      handler: ({ actor, params, body }) => createMove(service, actor, params.id, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/moves",
      summary: "The moves out of a location, newest first (paged)",
      tag: "moves",
      params: idParams,
      query: moveListQuery,
      response: pageOf(moveSchema),
      handler: ({ actor, params, query }) => locationMoves(service, actor, params.id, query),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/moves/:id",
      summary: "A move with its boxes and their states",
      tag: "moves",
      params: idParams,
      response: moveSchema,
      handler: ({ actor, params }) => getMove(service, actor, params.id),
    }),
    defineWrite({
      method: "patch",
      path: "/api/v1/moves/:id",
      summary:
        "Change a move: name, target location, status active -> finished or cancelled (rowVersion or If-Match optional; a stale one is 409 version_conflict)",
      tag: "moves",
      params: idParams,
      body: movePatchBody,
      response: moveSchema,
      handler: ({ actor, params, body }) => updateMove(service, actor, params.id, body),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/moves/:id/boxes",
      summary: "Add a container of the move's location as a box; the server numbers it",
      tag: "moves",
      status: 201,
      params: idParams,
      body: boxAddBody,
      response: boxSchema,
      handler: ({ actor, params, body }) => addBox(service, actor, params.id, body),
    }),
    defineWrite({
      method: "patch",
      path: "/api/v1/moves/:id/boxes/:containerId",
      summary: "Change a box: its destination, or its state (packed, in_transit, unpacked; unpacking moves it and its contents)",
      tag: "moves",
      params: byBox,
      body: boxPatchBody,
      response: boxSchema,
      handler: ({ actor, params, body }) => updateBox(service, actor, params.id, params.containerId, body),
    }),
    defineWrite({
      method: "delete",
      path: "/api/v1/moves/:id/boxes/:containerId",
      summary: "Take a box out of a move (not once it is unpacked)",
      tag: "moves",
      params: byBox,
      body: rowVersionBody,
      bodyOptional: true,
      response: writeResultSchema,
      handler: ({ actor, params, body }) => removeBox(service, actor, params.id, params.containerId, body.rowVersion),
    }),
  ] as RouteDef[];
}
