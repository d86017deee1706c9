/** /api/v1/locations/:id/places and /api/v1/places/:id. */
import { and, asc, eq, isNull } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { pageOf } from "../../../shared/paging.js";
import { placeCreateBody, placePatchBody, placeSchema, type Place } from "../../../shared/places.js";
import { executeOne } from "../registry.js";
import { withActor } from "../../db/actor.js";
import type { Tx } from "../../db/client.js";
import { places } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { defineRoute, type RouteDef } from "../../http/route.js";
import type { RouteDeps } from "../deps.js";
import { locationAccess } from "../../access/location.js";

const byId = z.object({ id: uuidSchema });

export const placeOut = (p: typeof places.$inferSelect): Place => ({
  id: p.id,
  locationId: p.locationId,
  parentId: p.parentId,
  kindId: p.kindId,
  name: p.name,
  isUnplaced: p.isUnplaced,
  shortCode: p.shortCode,
  rowVersion: p.rowVersion,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
});

async function findPlace(tx: Tx, id: string) {
  const [p] = await tx
    .select()
    .from(places)
    .where(and(eq(places.id, id), isNull(places.deletedAt)));
  if (!p) throw new NotFoundError("place");
  return p;
}

export function placeRoutes({ db, config }: RouteDeps): RouteDef[] {
  const opts = { undoWindowMs: config.undoWindowMs };
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/places",
      summary: "Every place of a location (a flat list; parentId builds the tree)",
      tag: "places",
      params: byId,
      response: pageOf(placeSchema),
      handler: ({ actor, params }) =>
        withActor(db, actor, async (tx) => {
          await locationAccess(tx, params.id);
          const found = await tx
            .select()
            .from(places)
            .where(and(eq(places.locationId, params.id), isNull(places.deletedAt)))
            .orderBy(asc(places.name), asc(places.id));
          return { items: found.map(placeOut), next_cursor: null };
        }),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/places",
      summary: "Create a place",
      tag: "places",
      status: 201,
      params: byId,
      body: placeCreateBody,
      response: placeSchema,
      async handler({ actor, params, body }) {
        const id = body.id ?? uuidv7();
        await executeOne(db, actor, { name: "place.create", locationId: params.id, args: { ...body, id } }, opts);
        return withActor(db, actor, async (tx) => placeOut(await findPlace(tx, id)));
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/v1/places/:id",
      summary: "Rename, re-parent or change the kind of a place",
      tag: "places",
      params: byId,
      body: placePatchBody,
      response: placeSchema,
      async handler({ actor, params, body }) {
        const { rowVersion, ...patch } = body;
        const locationId = await withActor(db, actor, async (tx) => (await findPlace(tx, params.id)).locationId);
        await executeOne(db, actor, { name: "place.update", locationId, baseVersion: rowVersion, args: { id: params.id, patch } }, opts);
        return withActor(db, actor, async (tx) => placeOut(await findPlace(tx, params.id)));
      },
    }),
  ] as RouteDef[];
}
