/**
 * The account's own routes: the signed-in person's sessions, address, reauthentication and sign-in
 * providers, and the magic-link and email-change links (the auth library's own routes are under its
 * mount, server/auth/mount.ts; sign-up is signup.ts). They stand with the domains, over the sign-in
 * glue in server/auth/ that they call.
 */
import type { Logger } from "pino";
import type { RouteDef, RouteDeps } from "../../http/route.js";
import { createMailer } from "../../mail/mailer.js";
import { emailChangeConfirmRoute } from "./email-change.js";
import type { SignInLimits } from "../../auth/limits.js";
import { magicLinkVerifyRoute } from "./magic-link-verify.js";
import { meRoutes } from "./me-routes.js";
import { providersRoute } from "./providers-route.js";
import { sessionRoutes } from "./sessions.js";

export interface AccountRouteDeps extends RouteDeps {
  limits: SignInLimits;
  logger: Logger;
}

export function accountRoutes(deps: AccountRouteDeps): RouteDef[] {
  const mailer = createMailer(deps.config, deps.logger);
  return [magicLinkVerifyRoute(deps), emailChangeConfirmRoute(deps), providersRoute(deps.config), ...sessionRoutes(deps), ...meRoutes({ ...deps, mailer })];
}
