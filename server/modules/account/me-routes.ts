/**
 * Sensitive account routes behind re-authentication (spec "Second factors" 4):
 * POST /api/v1/me/reauthenticate, POST /api/v1/me/email, GET /api/v1/me/recovery-kit.
 */
import { emailChangeBody, reauthenticateBody, reauthenticatedSchema, recoveryKitSchema } from "../../../shared/reauth.js";
import { defineRoute, type RouteDef } from "../../http/route.js";
import { emailChangePendingSchema } from "./email-change.js";
import { reauthenticate } from "../../auth/reauth.js";
import { changeEmail, recoveryKit, type AccountDeps } from "./service.js";

export function meRoutes(deps: AccountDeps): RouteDef[] {
  return [
    defineRoute({
      method: "post",
      path: "/api/v1/me/reauthenticate",
      summary: "Give the password again; sensitive routes accept this session for five minutes",
      tag: "me",
      body: reauthenticateBody,
      response: reauthenticatedSchema,
      async handler({ actor, body, req }) {
        const validUntil = await reauthenticate(deps, actor, body.password, req.clientIp);
        return { ok: true as const, validUntil: validUntil.toISOString() };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/me/email",
      summary:
        "Change the sign-in email (needs the password, or a very recent sign-in without one): 202, a link goes to the new address and a notice to the current one; the address changes when the link is confirmed",
      tag: "me",
      body: emailChangeBody,
      response: emailChangePendingSchema,
      status: 202,
      async handler({ actor, body, req }) {
        const email = await changeEmail(deps, actor, body, req.clientIp);
        return { status: "confirmation_sent" as const, email };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/me/recovery-kit",
      summary: "Download the recovery kit: sign-in name and unused backup codes (needs re-authentication)",
      tag: "me",
      response: recoveryKitSchema,
      async handler({ actor, res }) {
        const kit = await recoveryKit(deps, actor);
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Content-Disposition", 'attachment; filename="inventory-recovery-kit.json"');
        return kit;
      },
    }),
  ];
}
