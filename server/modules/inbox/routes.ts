/** GET /api/v1/inbox: open review items of the locations the actor can see. */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { inboxItemSchema, inboxQuerySchema } from "../../../shared/inbox.js";
import type { Actor } from "../../auth/actor.js";
import { executeOne } from "../registry.js";
import { inboxItems } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { pageOf } from "../../../shared/paging.js";
import { withActor } from "../../db/actor.js";
import { defineRoute, type RouteDef } from "../../http/route.js";
import type { RouteDeps } from "../deps.js";
import { locationAccess } from "../../access/location.js";
import { inboxOut, listInbox } from "./read.js";

const byId = z.object({ id: uuidSchema });
const itemResponse = z.object({ item: inboxItemSchema });

export function inboxRoutes({ db, config }: RouteDeps): RouteDef[] {
  const itemRow = (tx: Parameters<Parameters<typeof withActor>[2]>[0], id: string) =>
    tx
      .select()
      .from(inboxItems)
      .where(eq(inboxItems.id, id))
      .then(([row]) => {
        if (!row || row.deletedAt) throw new NotFoundError("inbox item");
        return row;
      });
  /** Runs a review command on an item and answers the item as it is afterwards. */
  const act = async (actor: Actor, id: string, name: string, args: Record<string, unknown>) => {
    const locationId = await withActor(db, actor, async (tx) => (await itemRow(tx, id)).locationId);
    await executeOne(db, actor, { name, locationId, args: { id, ...args } }, { undoWindowMs: config.undoWindowMs });
    return withActor(db, actor, async (tx) => ({ item: (await inboxOut(tx, [await itemRow(tx, id)]))[0]! }));
  };
  const action = (verb: "accept" | "dismiss", summary: string) =>
    defineRoute({
      method: "post",
      path: `/api/v1/inbox/:id/${verb}`,
      summary,
      tag: "inbox",
      params: byId,
      response: itemResponse,
      handler: ({ actor, params }) => act(actor, params.id, `inbox.${verb}`, {}),
    });
  return [
    action("accept", "Accept an item (a captured draft becomes an active thing)"),
    action("dismiss", "Dismiss an item (a captured draft is discarded; undoable from its history)"),
    defineRoute({
      method: "post",
      path: "/api/v1/inbox/:id/merge",
      summary: "Merge a captured draft into an existing thing",
      tag: "inbox",
      params: byId,
      body: z.object({ into: uuidSchema }).strict(),
      response: itemResponse,
      handler: ({ actor, params, body }) => act(actor, params.id, "inbox.merge", { into: body.into }),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/inbox",
      summary: "Open inbox items (drafts, sync drops, ...), newest first",
      tag: "inbox",
      query: inboxQuerySchema,
      response: pageOf(inboxItemSchema),
      handler: ({ actor, query }) =>
        withActor(db, actor, async (tx) => {
          if (query.locationId) await locationAccess(tx, query.locationId);
          return listInbox(tx, query);
        }),
    }),
  ] as RouteDef[];
}
