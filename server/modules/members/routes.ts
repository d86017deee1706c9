/**
 * Members and invites of a location. Role changes and removals go through the write path
 * (member.update / member.remove); listing and invites are in service.ts. Personal tokens never
 * reach these routes (spec "Personal tokens" 5): only a signed-in person does.
 */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import {
  inviteAcceptBody,
  inviteAcceptedSchema,
  inviteCreateBody,
  inviteCreatedSchema,
  memberListSchema,
  memberPatchBody,
  memberRemovedSchema,
  memberSchema,
} from "../../../shared/members.js";
import { pageQuerySchema } from "../../../shared/paging.js";
import type { Actor } from "../../auth/actor.js";
import { executeOne } from "../registry.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { ForbiddenError } from "../../errors/classes.js";
import { defineRoute, type RouteDef } from "../../http/route.js";
import { acceptInvite, createInvite, getMember, listMembers } from "./service.js";

const locationParams = z.object({ id: uuidSchema }).strict();
const memberParams = z.object({ id: uuidSchema, userId: uuidSchema }).strict();

function personOnly(actor: Actor): Actor {
  if (actor.type !== "user") throw new ForbiddenError("Members and invites are managed from a signed-in session only.");
  return actor;
}

export function memberRoutes(deps: { db: Db; config: Config }): RouteDef[] {
  const { db, config } = deps;
  const opts = { undoWindowMs: config.undoWindowMs };
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/members",
      summary: "List the members of a location (any member may)",
      tag: "members",
      params: locationParams,
      query: pageQuerySchema,
      response: memberListSchema,
      handler: ({ actor, params, query }) => listMembers(db, personOnly(actor), params.id, query),
    }),
    defineRoute({
      method: "patch",
      path: "/api/v1/locations/:id/members/:userId",
      summary: "Change a member's role (admins change members and viewers; only the owner changes admins)",
      tag: "members",
      params: memberParams,
      body: memberPatchBody,
      response: memberSchema,
      async handler({ actor, params, body }) {
        await executeOne(
          db,
          personOnly(actor),
          {
            name: "member.update",
            locationId: params.id,
            args: { userId: params.userId, role: body.role },
            ...(body.rowVersion !== undefined ? { baseVersion: body.rowVersion } : {}),
          },
          opts,
        );
        return getMember(db, actor, params.id, params.userId);
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/locations/:id/members/:userId",
      summary: "Remove a member, or leave when userId is your own (the owner cannot leave)",
      tag: "members",
      params: memberParams,
      response: memberRemovedSchema,
      async handler({ actor, params }) {
        const verdict = await executeOne(db, personOnly(actor), { name: "member.remove", locationId: params.id, args: { userId: params.userId } }, opts);
        return { ok: true as const, txid: verdict.txid };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/invites",
      summary: "Invite someone to a location (owner or admin; role up to admin; token shown once)",
      tag: "members",
      status: 201,
      params: locationParams,
      body: inviteCreateBody,
      response: inviteCreatedSchema,
      async handler({ actor, params, body }) {
        return createInvite(db, personOnly(actor), params.id, body);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/invites/accept",
      summary: "Accept an invite as the signed-in user",
      tag: "members",
      body: inviteAcceptBody,
      response: inviteAcceptedSchema,
      async handler({ actor, body }) {
        return acceptInvite(db, personOnly(actor), body.token);
      },
    }),
  ];
}
