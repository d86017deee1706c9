/** /api/v1/things/:id/box-checks. */
import { boxCheckCreateBody, boxCheckQuerySchema, boxCheckSchema } from "../../../shared/box-checks.js";
import { pageOf } from "../../../shared/paging.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { listBoxChecks, recordBoxCheck } from "./service.js";

export function boxCheckRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineWrite({
      method: "post",
      path: "/api/v1/things/:id/box-checks",
      summary:
        "Record a box check (members and above): what was seen, not here, found partly (split) or moved in from elsewhere; `id` and `at` default to the server's",
      tag: "box-checks",
      status: 201,
      params: idParams,
      body: boxCheckCreateBody,
      response: boxCheckSchema,
      handler: ({ actor, params, body }) => recordBoxCheck(service, actor, params.id, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/things/:id/box-checks",
      summary: "Box checks of a thing, newest first: those of it as a box and those that named it",
      tag: "box-checks",
      params: idParams,
      query: boxCheckQuerySchema,
      response: pageOf(boxCheckSchema),
      handler: ({ actor, params, query }) => listBoxChecks(service, actor, params.id, query),
    }),
  ] as RouteDef[];
}
