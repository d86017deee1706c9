/** /api/v1/oauth/grants: the apps a person connected over OAuth, and revoking one (from a session only). */
import { oauthGrantListSchema, oauthGrantSchema } from "../../shared/oauth.js";
import { pageQuerySchema } from "../../shared/paging.js";
import { idParams, defineRoute, type RouteDef, type RouteDeps } from "../http/route.js";
import { listGrants, revokeGrant } from "./grants.js";

export function grantRoutes({ db }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/oauth/grants",
      summary: "Apps you connected over OAuth (MCP clients)",
      tag: "oauth",
      query: pageQuerySchema,
      response: oauthGrantListSchema,
      handler: ({ actor, query }) => listGrants(db, actor, query),
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/oauth/grants/:id",
      summary: "Revoke a connected app; its access tokens stop working at once",
      tag: "oauth",
      params: idParams,
      response: oauthGrantSchema,
      handler: ({ actor, params }) => revokeGrant(db, actor, params.id),
    }),
  ] as RouteDef[];
}
