/** /api/v1/locations/:id/things, /api/v1/things/:id (+ move). Writes go through the service. */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { pageOf } from "../../../shared/paging.js";
import { thingCreateBody, thingDetailSchema, thingListQuerySchema, thingPatchBody, thingSummarySchema } from "../../../shared/things.js";
import { rowVersionBody, writeResultSchema } from "../../../shared/writes.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { thingCoverBody, thingPhotoAddBody } from "../../../shared/thing-photos.js";
import { changePhotos, createThing, deleteThing, getThing, listThingsIn, moveThing, updateThing } from "./service.js";

export function thingRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/things",
      summary: "List things (q, placeId, typeId, tagId; paged)",
      tag: "things",
      params: idParams,
      query: thingListQuerySchema,
      response: pageOf(thingSummarySchema),
      handler: ({ actor, params, query }) => listThingsIn(service, actor, params.id, query),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/locations/:id/things",
      summary: "Create a thing",
      tag: "things",
      status: 201,
      params: idParams,
      body: thingCreateBody,
      response: thingDetailSchema,
      handler: ({ actor, params, body }) => createThing(service, actor, params.id, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/things/:id",
      summary: "A thing with its path",
      tag: "things",
      params: idParams,
      response: thingDetailSchema,
      handler: ({ actor, params }) => getThing(service, actor, params.id),
    }),
    defineWrite({
      method: "patch",
      path: "/api/v1/things/:id",
      summary: "Change a thing (rowVersion or If-Match optional; a stale one is 409 version_conflict)",
      tag: "things",
      params: idParams,
      body: thingPatchBody,
      response: thingDetailSchema,
      handler: ({ actor, params, body }) => updateThing(service, actor, params.id, body),
    }),
    defineWrite({
      method: "delete",
      path: "/api/v1/things/:id",
      summary: "Delete a thing (a tombstone; undoable in the window)",
      tag: "things",
      params: idParams,
      body: rowVersionBody,
      bodyOptional: true,
      // writeResultSchema (shared/writes.ts) keeps txid in the body too; x-txid carries it as on every write.
      response: writeResultSchema,
      handler: ({ actor, params, body }) => deleteThing(service, actor, params.id, body.rowVersion),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/things/:id/move",
      summary: "Move a thing to a place or into a container",
      tag: "things",
      params: idParams,
      body: z
        .object({ placeId: uuidSchema.optional(), containerId: uuidSchema.optional(), rowVersion: z.number().int().min(1).optional() })
        .strict()
        .refine((b) => (b.placeId === undefined) !== (b.containerId === undefined), "give exactly one of placeId or containerId"),
      response: thingDetailSchema,
      handler: ({ actor, params, body: { rowVersion, ...dest } }) => moveThing(service, actor, params.id, dest, rowVersion),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/things/:id/photos",
      summary: "Add an uploaded photo (POST /api/v1/files first) to a thing; the first photo, or one added with cover, is its cover",
      tag: "things",
      params: idParams,
      body: thingPhotoAddBody,
      response: thingDetailSchema,
      handler: ({ actor, params, body: { rowVersion, ...add } }) => changePhotos(service, actor, params.id, { name: "thing.photo.add", ...add }, rowVersion),
    }),
    defineWrite({
      method: "delete",
      path: "/api/v1/things/:id/photos/:fileId",
      summary: "Remove a photo from a thing (the file stays; a removed cover passes to the next photo)",
      tag: "things",
      params: z.object({ id: uuidSchema, fileId: uuidSchema }),
      body: rowVersionBody,
      bodyOptional: true,
      response: thingDetailSchema,
      handler: ({ actor, params, body }) => changePhotos(service, actor, params.id, { name: "thing.photo.remove", fileId: params.fileId }, body.rowVersion),
    }),
    defineWrite({
      method: "put",
      path: "/api/v1/things/:id/cover",
      summary: "Choose which of a thing's photos is its cover",
      tag: "things",
      params: idParams,
      body: thingCoverBody,
      response: thingDetailSchema,
      handler: ({ actor, params, body }) => changePhotos(service, actor, params.id, { name: "thing.photo.cover", fileId: body.fileId }, body.rowVersion),
    }),
  ] as RouteDef[];
}
