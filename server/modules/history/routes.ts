/** GET /api/v1/things/:id/history and POST /api/v1/history/:eventId/undo. */
import { z } from "zod";
import { historyEntrySchema, historyQuerySchema } from "../../../shared/history.js";
import { uuidSchema } from "../../../shared/ids.js";
import { pageOf } from "../../../shared/paging.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { thingHistory, undo } from "./service.js";

export function historyRoutes({ service }: ModuleDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/things/:id/history",
      summary: "A thing's history, newest first, with undo windows",
      tag: "history",
      bearer: true,
      params: idParams,
      query: historyQuerySchema,
      response: pageOf(historyEntrySchema),
      handler: ({ actor, params, query }) => thingHistory(service, actor, params.id, query),
    }),
    defineWrite({
      method: "post",
      path: "/api/v1/history/:eventId/undo",
      summary: "Undo a change inside its undo window (its author or an admin)",
      tag: "history",
      params: z.object({ eventId: uuidSchema }),
      response: z.object({ item: historyEntrySchema, rowVersion: z.number().int() }),
      handler: ({ actor, params }) => undo(service, actor, params.eventId),
    }),
  ] as RouteDef[];
}
