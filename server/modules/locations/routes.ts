/** GET /api/v1/me, /api/v1/locations[/:id], the owner's acts on a location and its trash. */
import { z } from "zod";
import {
  locationCreateArgs,
  locationDeleteBody,
  locationDeletedSchema,
  locationPatchBody,
  locationSchema,
  locationTransferBody,
  meSchema,
  TRASH_DAYS,
  trashedLocationSchema,
} from "../../../shared/locations.js";
import { pageOf, pageQuerySchema } from "../../../shared/paging.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { deleteLocation, transferLocation } from "./ownership.js";
import { listTrash, restoreLocation } from "./trash.js";
import { createLocation, getLocation, listLocations, updateLocation, whoAmI } from "./service.js";

export function locationRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/me",
      summary: "The signed-in user and the locations they can see",
      tag: "me",
      response: meSchema,
      handler: ({ actor }) => whoAmI(service, actor),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/locations",
      summary: "Locations the signed-in user can see",
      tag: "locations",
      response: z.object({ items: z.array(locationSchema), next_cursor: z.null() }),
      handler: async ({ actor }) => ({ items: await listLocations(service, actor), next_cursor: null }),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/locations",
      summary: "Create a location in your own account (you become its owner)",
      tag: "locations",
      status: 201,
      body: locationCreateArgs,
      response: locationSchema,
      handler: ({ actor, body }) => createLocation(service, actor, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id",
      summary: "One location with your role in it",
      tag: "locations",
      params: idParams,
      response: locationSchema,
      handler: ({ actor, params }) => getLocation(service, actor, params.id),
    }),
    defineWrite({
      method: "patch",
      path: "/api/v1/locations/:id",
      summary: "Rename a location or change its settings (admins; requiresTwoFactor and secretRevealRoles: owner only)",
      tag: "locations",
      params: idParams,
      body: locationPatchBody,
      response: locationSchema,
      handler: ({ actor, params, body }) => updateLocation(service, actor, params.id, body),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/transfer",
      summary: "Make another member the owner (owner only; the name typed as `confirm`); you become an admin",
      tag: "locations",
      params: idParams,
      body: locationTransferBody,
      response: locationSchema,
      async handler({ actor, params, body }) {
        await transferLocation(service.db, actor, params.id, body);
        return getLocation(service, actor, params.id);
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/locations/:id",
      summary: "Delete a location (owner only; the name typed as `confirm`): gone for everyone, kept 30 days in the trash",
      tag: "locations",
      params: idParams,
      body: locationDeleteBody,
      response: locationDeletedSchema,
      handler: ({ actor, params, body }) => deleteLocation(service.db, actor, params.id, body.confirm),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/trash/locations",
      summary: `Your deleted locations (you are their owner), kept ${TRASH_DAYS} days before they are purged`,
      tag: "locations",
      query: pageQuerySchema,
      response: pageOf(trashedLocationSchema),
      handler: ({ actor, query }) => listTrash(service.db, actor, query),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/restore",
      summary: "Take a deleted location out of the trash (owner only, before it is purged); its revoked invites and share links stay revoked",
      tag: "locations",
      params: idParams,
      response: locationSchema,
      async handler({ actor, params }) {
        await restoreLocation(service.db, actor, params.id);
        return getLocation(service, actor, params.id);
      },
    }),
  ] as RouteDef[];
}
