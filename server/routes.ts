/** Every API route, by domain. The OpenAPI document is generated from this same list. */
import type { Services } from "./app.js";
import { signUpRoute } from "./auth/signup.js";
import type { RouteDef } from "./http/route.js";
import { openApiRoute } from "./http/openapi.js";

export function apiRoutes(services: Services): RouteDef[] {
  const { database, config, auth } = services;
  const deps = { db: database.db, config, auth };
  const list: RouteDef[] = [signUpRoute(deps) as RouteDef];
  list.push(openApiRoute(() => list) as RouteDef);
  return list;
}
