/** /api/v1/locations/:id/webhooks and /api/v1/webhooks/:id (+ deliveries): owners and admins only, never a token. */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { pageOf, pageQuerySchema } from "../../../shared/paging.js";
import { deliverySchema, webhookCreateBody, webhookCreatedSchema, webhookPatchBody, webhookSchema } from "../../../shared/webhooks.js";
import { idParams, defineRoute, type RouteDef, type RouteDeps } from "../../http/route.js";
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, updateWebhook, type WebhookDeps } from "./service.js";
import { webhookGuard } from "./url.js";

export function webhookRoutes(deps: RouteDeps): RouteDef[] {
  const service: WebhookDeps = { db: deps.db, guard: webhookGuard(deps.config) };
  return [
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/webhooks",
      summary: "Add a webhook (owners and admins); the answer holds its signing secret, shown this once",
      tag: "webhooks",
      status: 201,
      params: idParams,
      body: webhookCreateBody,
      response: webhookCreatedSchema,
      handler: ({ actor, params, body }) => createWebhook(service, actor, params.id, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/webhooks",
      summary: "A location's webhooks, oldest first, paged (owners and admins; never their secrets)",
      tag: "webhooks",
      params: idParams,
      query: pageQuerySchema,
      response: pageOf(webhookSchema),
      handler: ({ actor, params, query }) => listWebhooks(service, actor, params.id, query),
    }),
    defineRoute({
      method: "patch",
      path: "/api/v1/webhooks/:id",
      summary: "Change a webhook's URL, events or active switch (rowVersion or If-Match optional; a stale one is 409 version_conflict)",
      tag: "webhooks",
      params: idParams,
      body: webhookPatchBody,
      response: webhookSchema,
      handler: ({ actor, params, body }) => updateWebhook(service, actor, params.id, body),
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/webhooks/:id",
      summary: "Delete a webhook and its delivery log",
      tag: "webhooks",
      params: idParams,
      response: z.object({ id: uuidSchema, deleted: z.literal(true) }),
      handler: ({ actor, params }) => deleteWebhook(service, actor, params.id),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/webhooks/:id/deliveries",
      summary: "A webhook's delivery log, newest first (paged): each delivery's attempts, status codes and errors",
      tag: "webhooks",
      params: idParams,
      query: pageQuerySchema,
      response: pageOf(deliverySchema),
      handler: ({ actor, params, query }) => listDeliveries(service, actor, params.id, query),
    }),
  ];
}
