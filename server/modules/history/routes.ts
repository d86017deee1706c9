/** GET /api/v1/things/:id/history and POST /api/v1/history/:eventId/undo. */
import { eq } from "drizzle-orm";
import { z } from "zod";
import { historyEntrySchema, historyQuerySchema } from "../../../shared/history.js";
import { uuidSchema } from "../../../shared/ids.js";
import { pageOf } from "../../../shared/paging.js";
import { executeOne } from "../registry.js";
import { withActor } from "../../db/actor.js";
import { historyEntries, users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { defineRoute, type RouteDef } from "../../http/route.js";
import type { RouteDeps } from "../deps.js";
import { locationAccess } from "../../access/location.js";
import { findThing } from "../things/read.js";
import { entityHistory, historyOut } from "./read.js";

export function historyRoutes({ db, config }: RouteDeps): RouteDef[] {
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/things/:id/history",
      summary: "A thing's history, newest first, with undo windows",
      tag: "history",
      bearer: true,
      params: z.object({ id: uuidSchema }),
      query: historyQuerySchema,
      response: pageOf(historyEntrySchema),
      handler: ({ actor, params, query }) =>
        withActor(db, actor, async (tx) => {
          const thing = await findThing(tx, params.id, { includeDeleted: true });
          const reader = await locationAccess(tx, thing.locationId);
          return entityHistory(tx, { type: "thing", id: thing.id }, query, reader);
        }),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/history/:eventId/undo",
      summary: "Undo a change inside its undo window (its author or an admin)",
      tag: "history",
      params: z.object({ eventId: uuidSchema }),
      response: z.object({ item: historyEntrySchema, rowVersion: z.number().int(), txid: z.string() }),
      async handler({ actor, params, res }) {
        const locationId = await withActor(db, actor, async (tx) => {
          const [e] = await tx.select({ locationId: historyEntries.locationId }).from(historyEntries).where(eq(historyEntries.id, params.eventId));
          if (!e) throw new NotFoundError("history event");
          return e.locationId;
        });
        const v = await executeOne(db, actor, { name: "history.undo", locationId, args: { eventId: params.eventId } }, { undoWindowMs: config.undoWindowMs });
        res.setHeader("x-txid", v.txid);
        return withActor(db, actor, async (tx) => {
          const [row] = await tx
            .select({ e: historyEntries, name: users.name })
            .from(historyEntries)
            .leftJoin(users, eq(users.id, historyEntries.actorUserId))
            .where(eq(historyEntries.id, v.eventId!));
          const reader = await locationAccess(tx, locationId);
          return { item: historyOut(row!.e, row!.name, reader, new Date()), rowVersion: v.rowVersion, txid: v.txid };
        });
      },
    }),
  ] as RouteDef[];
}
