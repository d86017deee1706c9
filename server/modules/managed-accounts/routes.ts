/** Managed accounts: creation and reset by owners and admins; redemption of the one-time code. */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { managedAccountCodeSchema, managedAccountCreateBody, resetCodeBody, resetCodeDoneSchema } from "../../../shared/managed-accounts.js";
import type { SignInLimits } from "../../auth/limits.js";
import { idParams, defineRoute, type RouteDef, type RouteDeps } from "../../http/route.js";
import { redeemCode } from "./redeem.js";
import { createManagedAccount, resetManagedAccount } from "./service.js";

export function managedAccountRoutes(deps: RouteDeps & { limits: SignInLimits }): RouteDef[] {
  const { db, config } = deps;
  return [
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/managed-accounts",
      summary: "Create a managed account (owner or admin; at most 20 per location); answers its one-time code",
      tag: "managed-accounts",
      status: 201,
      params: idParams.strict(),
      body: managedAccountCreateBody,
      response: managedAccountCodeSchema,
      handler: ({ actor, params, body }) => createManagedAccount(db, config.secret, actor, params.id, body),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/managed-accounts/:userId/reset",
      summary: "Reset a managed account: its password stops working, a new one-time code is answered",
      tag: "managed-accounts",
      params: z.object({ id: uuidSchema, userId: uuidSchema }).strict(),
      response: managedAccountCodeSchema,
      handler: ({ actor, params }) => resetManagedAccount(db, config.secret, actor, params.id, params.userId),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/auth/reset-code",
      summary: "A managed account's person sets their password with the one-time code",
      tag: "auth",
      auth: "none",
      body: resetCodeBody,
      response: resetCodeDoneSchema,
      async handler({ body, req }) {
        await redeemCode({ ...deps, secret: config.secret }, body, req.clientIp);
        return { status: true as const };
      },
    }),
  ];
}
