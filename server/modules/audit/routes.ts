/** /api/v1/me/audit and /api/v1/locations/:id/audit: security-relevant settings changes, newest first. */
import { auditListSchema } from "../../../shared/audit.js";
import { pageQuerySchema } from "../../../shared/paging.js";
import { idParams, defineRoute, type RouteDef } from "../../http/route.js";
import type { RouteDeps } from "../../http/route.js";
import { locationAudit, myAudit } from "./service.js";

export function auditRoutes({ db }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/me/audit",
      summary: "Your account's security activity (tokens, connected apps, AI keys, your locations), newest first, paged",
      tag: "audit",
      query: pageQuerySchema,
      response: auditListSchema,
      handler: ({ actor, query }) => myAudit(db, actor, query),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/audit",
      summary: "A location's security activity (webhooks, share links, members joining, delete and transfer), newest first, paged (owners and admins)",
      tag: "audit",
      params: idParams,
      query: pageQuerySchema,
      response: auditListSchema,
      handler: ({ actor, params, query }) => locationAudit(db, actor, params.id, query),
    }),
  ] as RouteDef[];
}
