/** Our routes of the authentication area (the library's own are under its mount), managed accounts included. */
import type { Logger } from "pino";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import type { RouteDef } from "../http/route.js";
import { createMailer } from "../mail/mailer.js";
import type { Auth } from "./auth.js";
import { emailChangeConfirmRoute } from "./email-change.js";
import type { SignInLimits } from "./limits.js";
import { magicLinkVerifyRoute } from "./magic-link-verify.js";
import { meRoutes } from "./me-routes.js";
import { providersRoute } from "./providers-route.js";
import { sessionRoutes } from "./sessions.js";

export interface AuthRouteDeps {
  db: Db;
  config: Config;
  auth: Auth;
  limits: SignInLimits;
  logger: Logger;
}

export function authRoutes(deps: AuthRouteDeps): RouteDef[] {
  const mailer = createMailer(deps.config, deps.logger);
  return [
    magicLinkVerifyRoute(deps),
    emailChangeConfirmRoute(deps),
    providersRoute(deps.config) as RouteDef,
    ...sessionRoutes(deps),
    ...meRoutes({ ...deps, mailer }),
  ];
}
