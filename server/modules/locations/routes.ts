/** GET /api/v1/me and /api/v1/locations[/:id]. */
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { locationCreateArgs, locationPatchBody, locationSchema, meSchema } from "../../../shared/locations.js";
import { executeOne } from "../registry.js";
import { withActor } from "../../db/actor.js";
import { users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { defineRoute, type RouteDef } from "../../http/route.js";
import type { RouteDeps } from "../deps.js";
import { myLocation, myLocations } from "./read.js";

const byId = z.object({ id: uuidSchema });

export function locationRoutes({ db, config }: RouteDeps): RouteDef[] {
  const opts = { undoWindowMs: config.undoWindowMs };
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/me",
      summary: "The signed-in user and the locations they can see",
      tag: "me",
      response: meSchema,
      handler: ({ actor }) =>
        withActor(db, actor, async (tx) => {
          const [u] = await tx
            .select({ id: users.id, name: users.name, email: users.email, username: users.username, twoFactorEnabled: users.twoFactorEnabled })
            .from(users)
            .where(eq(users.id, actor.userId));
          if (!u) throw new NotFoundError("user");
          // Managed accounts have a synthetic address that is never shown (spec "Managed accounts").
          const email = u.email.endsWith("@managed.invalid") ? null : u.email;
          return {
            user: { id: u.id, name: u.name, email, username: u.username, twoFactorEnabled: u.twoFactorEnabled },
            locations: await myLocations(tx),
          };
        }),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/locations",
      summary: "Locations the signed-in user can see",
      tag: "locations",
      response: z.object({ items: z.array(locationSchema), next_cursor: z.null() }),
      handler: ({ actor }) => withActor(db, actor, async (tx) => ({ items: await myLocations(tx), next_cursor: null })),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/locations",
      summary: "Create a location in your own account (you become its owner)",
      tag: "locations",
      status: 201,
      body: locationCreateArgs,
      response: locationSchema,
      async handler({ actor, body }) {
        const id = body.id ?? uuidv7();
        await executeOne(db, actor, { name: "location.create", locationId: id, args: { ...body, id } }, opts);
        return withActor(db, actor, (tx) => myLocation(tx, id));
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id",
      summary: "One location with your role in it",
      tag: "locations",
      params: byId,
      response: locationSchema,
      handler: ({ actor, params }) => withActor(db, actor, (tx) => myLocation(tx, params.id)),
    }),
    defineRoute({
      method: "patch",
      path: "/api/v1/locations/:id",
      summary: "Rename a location or change its settings (admins; requiresTwoFactor: owner only)",
      tag: "locations",
      params: byId,
      body: locationPatchBody,
      response: locationSchema,
      async handler({ actor, params, body }) {
        const { rowVersion, ...patch } = body;
        await executeOne(
          db,
          actor,
          { name: "location.update", locationId: params.id, args: { id: params.id, patch }, ...(rowVersion !== undefined ? { baseVersion: rowVersion } : {}) },
          opts,
        );
        return withActor(db, actor, (tx) => myLocation(tx, params.id));
      },
    }),
  ] as RouteDef[];
}
