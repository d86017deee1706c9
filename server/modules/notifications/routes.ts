/**
 * POST /api/v1/me/push-subscriptions, DELETE /api/v1/me/push-subscriptions/:id and
 * GET /api/v1/push/vapid-public-key. Sessions only: /me is never open to a personal token
 * (server/modules/tokens/allow-list.ts).
 */
import { pushRemovedSchema, pushSubscribedSchema, pushSubscriptionBody, vapidKeySchema } from "../../../shared/push.js";
import { idParams, defineRoute, type RouteDef, type RouteDeps } from "../../http/route.js";
import { pushGuard } from "./guard.js";
import { subscribe, unsubscribe } from "./service.js";

export function notificationRoutes(deps: RouteDeps): RouteDef[] {
  const { db, config } = deps;
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/push/vapid-public-key",
      summary: "The server's VAPID public key: the applicationServerKey for PushManager.subscribe",
      tag: "notifications",
      response: vapidKeySchema,
      handler: async () => ({ publicKey: config.vapid.publicKey }),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/me/push-subscriptions",
      summary:
        "Subscribe this browser to notifications (new items to review, your changes that were not saved); the same endpoint again updates it. The endpoint must be https on a public address.",
      tag: "notifications",
      body: pushSubscriptionBody,
      response: pushSubscribedSchema,
      status: 201,
      handler: ({ actor, body }) => subscribe(db, pushGuard(config), actor, body),
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/me/push-subscriptions/:id",
      summary: "Remove one of your push subscriptions",
      tag: "notifications",
      params: idParams,
      response: pushRemovedSchema,
      async handler({ actor, params }) {
        await unsubscribe(db, actor, params.id);
        return { ok: true as const };
      },
    }),
  ];
}
