/**
 * Sensitive account routes behind re-authentication (spec "Second factors" 4):
 * POST /api/v1/me/reauthenticate, POST /api/v1/me/email, GET /api/v1/me/recovery-kit.
 */
import { eq } from "drizzle-orm";
import { emailChangeBody, reauthenticateBody, reauthenticatedSchema, recoveryKitSchema } from "../../../shared/reauth.js";
import type { Config } from "../../config.js";
import { users } from "../../db/schema/index.js";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { defineRoute, type RouteDef } from "../../http/route.js";
import { isSyntheticEmail, type Mailer } from "../../mail/mailer.js";
import { emailChangePendingSchema, requestEmailChange } from "./email-change.js";
import { reauthenticate, requireFreshAuth, type ReauthDeps } from "../../auth/reauth.js";

export function meRoutes(deps: ReauthDeps & { config: Config; mailer: Mailer }): RouteDef[] {
  const { db, auth, config } = deps;
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
        if (body.password !== undefined) await reauthenticate(deps, actor, body.password, req.clientIp);
        else await requireFreshAuth(deps, actor);
        const [me] = await db.select({ email: users.email }).from(users).where(eq(users.id, actor.userId));
        if (!me) throw new NotFoundError("user");
        if (isSyntheticEmail(me.email)) throw new ForbiddenError("A managed account signs in with its username and has no email address.");
        const email = body.email.trim().toLowerCase();
        if (isSyntheticEmail(email)) throw new ConflictError("This address cannot be used for your account.");
        if (email === me.email) throw new ValidationError("This is already your sign-in address.");
        const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
        if (taken) throw new ConflictError("This address cannot be used for your account.");
        // Two mails per request: the per-address mail limit keeps anyone from being mail-bombed.
        await deps.limits.hitMailRequest(email);
        await requestEmailChange(deps, { id: actor.userId, email: me.email }, email);
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
        await requireFreshAuth(deps, actor);
        const [me] = await db
          .select({ email: users.email, username: users.username, twoFactorEnabled: users.twoFactorEnabled })
          .from(users)
          .where(eq(users.id, actor.userId));
        if (!me) throw new NotFoundError("user");
        const backupCodes = me.twoFactorEnabled ? (await auth.api.viewBackupCodes({ body: { userId: actor.userId } })).backupCodes : [];
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Content-Disposition", 'attachment; filename="inventory-recovery-kit.json"');
        return {
          account: isSyntheticEmail(me.email) ? (me.username ?? "") : me.email,
          signInUrl: config.publicUrl.origin,
          twoFactorEnabled: me.twoFactorEnabled,
          backupCodes,
          generatedAt: new Date().toISOString(),
        };
      },
    }),
  ];
}
