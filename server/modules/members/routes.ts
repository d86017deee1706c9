/**
 * Members and invites of a location. Personal tokens and MCP grants never reach these routes
 * (spec "Personal tokens" 5): the service answers only a signed-in person.
 */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import {
  inviteAcceptBody,
  inviteAcceptedSchema,
  inviteCreateBody,
  inviteCreatedSchema,
  inviteListSchema,
  invitePreviewSchema,
  inviteResentSchema,
  inviteSchema,
  memberListSchema,
  memberPatchBody,
  memberRemovedSchema,
  memberSchema,
} from "../../../shared/members.js";
import { pageQuerySchema } from "../../../shared/paging.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import { createMailer } from "../../mail/mailer.js";
import type { ModuleDeps } from "../manifest.js";
import { listInvites, resendInvite, revokeInvite } from "./invite-admin.js";
import type { InviteMailDeps } from "./invite-mail.js";
import { previewInvite } from "./invite-preview.js";
import { acceptInvite, createInvite, listMembers, removeMember, updateMember } from "./service.js";

const locationParams = idParams.strict();
const inviteParams = idParams.strict();
const memberParams = z.object({ id: uuidSchema, userId: uuidSchema }).strict();

export function memberRoutes(deps: ModuleDeps): RouteDef[] {
  const { service } = deps;
  const mail: InviteMailDeps = {
    mailer: createMailer(deps.config, deps.logger),
    publicUrl: deps.config.publicUrl,
    onMailError: (err: unknown) => deps.logger.error({ err, kind: "invite" }, "invite mail could not be sent"),
  };
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/members",
      summary: "List the members of a location (any member may)",
      tag: "members",
      params: locationParams,
      query: pageQuerySchema,
      response: memberListSchema,
      handler: ({ actor, params, query }) => listMembers(service, actor, params.id, query),
    }),
    defineWrite({
      method: "patch",
      path: "/api/v1/locations/:id/members/:userId",
      summary: "Change a member's role (admins change members and viewers; only the owner changes admins)",
      tag: "members",
      params: memberParams,
      body: memberPatchBody,
      response: memberSchema,
      handler: ({ actor, params, body }) => updateMember(service, actor, params.id, params.userId, body),
    }),
    defineWrite({
      method: "delete",
      path: "/api/v1/locations/:id/members/:userId",
      summary: "Remove a member, or leave when userId is your own (the owner cannot leave)",
      tag: "members",
      params: memberParams,
      response: memberRemovedSchema,
      handler: ({ actor, params }) => removeMember(service, actor, params.id, params.userId),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/invites",
      summary: "Invite someone to a location (owner or admin; role up to admin; token shown once; mailed when it names an address)",
      tag: "members",
      status: 201,
      params: locationParams,
      body: inviteCreateBody,
      response: inviteCreatedSchema,
      handler: ({ actor, params, body }) => createInvite(service, mail, actor, params.id, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/invites",
      summary: "List a location's invitations, newest first (owner or admin; tokens are never shown)",
      tag: "members",
      params: locationParams,
      query: pageQuerySchema,
      response: inviteListSchema,
      handler: ({ actor, params, query }) => listInvites(service, actor, params.id, query),
    }),
    defineRoute({
      method: "delete",
      path: "/api/v1/invites/:id",
      summary: "Revoke an invitation (owner or admin): it can no longer be accepted",
      tag: "members",
      params: inviteParams,
      response: inviteSchema,
      handler: ({ actor, params }) => revokeInvite(service, actor, params.id),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/invites/:id/resend",
      summary: "Resend an invitation (owner or admin): a new link for 7 days, mailed when it names an address; the old link stops working",
      tag: "members",
      params: inviteParams,
      response: inviteResentSchema,
      handler: ({ actor, params }) => resendInvite(service, mail, actor, params.id),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/invites/preview",
      summary:
        "What an invite offers, before accepting and with no sign-in: location, inviter and role. The token (in the body) is the only authority; unknown, used, revoked and expired tokens all answer 404; counts against the per-address limit on token redemptions",
      tag: "members",
      auth: "none",
      body: inviteAcceptBody,
      response: invitePreviewSchema,
      async handler({ req, res, body }) {
        await deps.limits.hitRedemption(req.clientIp);
        res.setHeader("cache-control", "no-store");
        return previewInvite(deps.db, body.token);
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/invites/accept",
      summary: "Accept an invite as the signed-in user",
      tag: "members",
      body: inviteAcceptBody,
      response: inviteAcceptedSchema,
      handler: ({ actor, body }) => acceptInvite(service, actor, body.token),
    }),
  ];
}
