/** GET /api/v1/inbox (open review items of the visible locations) and the review actions. */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { inboxItemSchema, inboxQuerySchema } from "../../../shared/inbox.js";
import { inboxAcceptArgs } from "../../../shared/inbox-actions.js";
import { pageOf } from "../../../shared/paging.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { openItems, reviewItem } from "./service.js";

const itemResponse = z.object({ item: inboxItemSchema });

export function inboxRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineWrite({
      method: "post",
      path: "/api/v1/inbox/:id/accept",
      summary: "Accept an item (a captured draft becomes an active thing; a receipt makes or links the things of its lines; a currency item takes its pick)",
      tag: "inbox",
      params: idParams,
      // Optional: a receipt's per-line decisions, a currency item's pick.
      body: inboxAcceptArgs.omit({ id: true }),
      bodyOptional: true,
      response: itemResponse,
      handler: ({ actor, params, body }) => reviewItem(service, actor, params.id, { verb: "accept", ...body }),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/inbox/:id/dismiss",
      summary: "Dismiss an item (a captured draft is discarded; undoable from its history)",
      tag: "inbox",
      params: idParams,
      response: itemResponse,
      handler: ({ actor, params }) => reviewItem(service, actor, params.id, { verb: "dismiss" }),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/inbox/:id/merge",
      summary: "Merge a captured draft into an existing thing",
      tag: "inbox",
      params: idParams,
      body: z.object({ into: uuidSchema }).strict(),
      response: itemResponse,
      handler: ({ actor, params, body }) => reviewItem(service, actor, params.id, { verb: "merge", into: body.into }),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/inbox",
      summary: "Open inbox items (drafts, sync drops, ...), newest first",
      tag: "inbox",
      query: inboxQuerySchema,
      response: pageOf(inboxItemSchema),
      handler: ({ actor, query }) => openItems(service, actor, query),
    }),
  ] as RouteDef[];
}
