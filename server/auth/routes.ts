/** Our routes of the authentication area (the library's own are under its mount), managed accounts included. */
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import type { RouteDef } from "../http/route.js";
import type { Auth } from "./auth.js";
import type { SignInLimits } from "./limits.js";
import { magicLinkVerifyRoute } from "./magic-link-verify.js";
import { meRoutes } from "./me-routes.js";
import { providersRoute } from "./providers-route.js";
import { sessionRoutes } from "./sessions.js";
import { managedAccountRoutes } from "../modules/managed-accounts/routes.js";

export interface AuthRouteDeps {
  db: Db;
  config: Config;
  auth: Auth;
  limits: SignInLimits;
}

export function authRoutes(deps: AuthRouteDeps): RouteDef[] {
  return [magicLinkVerifyRoute(deps), providersRoute(deps.config) as RouteDef, ...sessionRoutes(deps), ...meRoutes(deps), ...managedAccountRoutes(deps)];
}
