/**
 * Instance setup (route mode `none`: the one-time code is the authority) and instance
 * administration. Tokens never reach /admin (server/modules/tokens/allow-list.ts) and the service
 * answers only a signed-in instance admin.
 */
import { adminSettingsPatch, adminSettingsSchema, adminUserListSchema, setupBody, setupDoneSchema } from "../../../shared/admin.js";
import { pageQuerySchema } from "../../../shared/paging.js";
import { defineRoute, type RouteContext, type RouteDef } from "../../http/route.js";
import { listUsers, readSettings, requireInstanceAdmin, runSetup, writeSettings, type AdminDeps } from "./service.js";

export function adminRoutes(deps: AdminDeps): RouteDef[] {
  const { db, config } = deps;
  /** An administration route's handler: only a signed-in instance admin gets `answer`. */
  const asAdmin =
    <P, Q, B, R>(answer: (ctx: RouteContext<P, Q, B>) => Promise<R>) =>
    async (ctx: RouteContext<P, Q, B>): Promise<R> => {
      await requireInstanceAdmin(db, ctx.actor);
      return answer(ctx);
    };
  return [
    defineRoute({
      method: "post",
      path: "/api/v1/setup",
      summary: "Set up a fresh instance: the first account, made instance admin, with the one-time setup code printed at start",
      tag: "admin",
      auth: "none",
      status: 201,
      body: setupBody,
      response: setupDoneSchema,
      handler: ({ body, req }) => runSetup(deps, body, req.clientIp),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/admin/settings",
      summary: "Instance settings (instance admins)",
      tag: "admin",
      response: adminSettingsSchema,
      handler: asAdmin(() => readSettings(db, config)),
    }),
    defineRoute({
      method: "patch",
      path: "/api/v1/admin/settings",
      summary: "Open or close sign-up (instance admins)",
      tag: "admin",
      body: adminSettingsPatch,
      response: adminSettingsSchema,
      handler: asAdmin(({ body }) => writeSettings(db, config, body)),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/admin/users",
      summary: "Every user of the instance, oldest first (instance admins)",
      tag: "admin",
      query: pageQuerySchema,
      response: adminUserListSchema,
      handler: asAdmin(({ query }) => listUsers(db, query)),
    }),
  ];
}
