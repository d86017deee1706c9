/** GET /api/v1/inbox: open review items of the locations the actor can see. */
import { inboxItemSchema, inboxQuerySchema } from "../../../shared/inbox.js";
import { pageOf } from "../../../shared/paging.js";
import { withActor } from "../../db/actor.js";
import { defineRoute, type RouteDef } from "../../http/route.js";
import type { RouteDeps } from "../deps.js";
import { readerView } from "../things/read.js";
import { listInbox } from "./read.js";

export function inboxRoutes({ db }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/inbox",
      summary: "Open inbox items (drafts, sync drops, ...), newest first",
      tag: "inbox",
      query: inboxQuerySchema,
      response: pageOf(inboxItemSchema),
      handler: ({ actor, query }) =>
        withActor(db, actor, async (tx) => {
          if (query.locationId) await readerView(tx, actor.userId, query.locationId);
          return listInbox(tx, query);
        }),
    }),
  ] as RouteDef[];
}
