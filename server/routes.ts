/**
 * Every API route: each module's (its manifest's `routes`, in the order of server/modules/index.ts),
 * then the routes that are no module's: sync push and shapes, the OAuth grants, the OpenAPI
 * document, which is generated from this same list.
 */
import type { Services } from "./services.js";
import type { RouteDef } from "./http/route.js";
import { openApiRoute } from "./http/openapi.js";
import { metaOperations } from "./http/meta.js";
import { authLibraryOperations } from "./http/openapi-auth.js";
import { oauthOperations } from "./oauth/openapi.js";
import { pushRoutes } from "./sync/push.js";
import { recordDrops } from "./modules/inbox/drops.js";
import { executeInTx } from "./modules/registry.js";
import { shapeRoutes } from "./sync/shapes/route.js";
import { wakeRoutes } from "./sync/live/route.js";
import { isTokenRoute } from "./modules/tokens/allow-list.js";
import { grantRoutes } from "./oauth/grant-routes.js";
import { modules } from "./modules/index.js";

/** A method and path answered twice would leave the second one dead (Express takes the first): the server does not start with one. */
function assertPathsOnce(list: RouteDef[], ownerOf: Map<RouteDef, string>): void {
  const seen = new Map<string, string>();
  for (const def of list) {
    const key = `${def.method.toUpperCase()} ${def.path}`;
    const owner = ownerOf.get(def) ?? "the route table";
    const other = seen.get(key);
    if (other !== undefined) throw new Error(`${key} is answered twice: by ${other} and by ${owner}`);
    seen.set(key, owner);
  }
}

export function apiRoutes(services: Services): RouteDef[] {
  const { database, config, auth, moduleDeps } = services;
  const deps = { db: database.db, config, auth };
  const ownerOf = new Map<RouteDef, string>();
  const list: RouteDef[] = modules.flatMap((m) => {
    const defs = m.routes?.(moduleDeps) ?? [];
    for (const def of defs) ownerOf.set(def, `module ${m.name}`);
    return defs;
  });
  list.push(
    ...pushRoutes(deps, { executeInTx, recordDrops }),
    ...shapeRoutes(deps, services.notifier),
    ...wakeRoutes(deps, services.notifier),
    ...grantRoutes(deps),
  );
  // The token allow-list decides; the flag only lets the OpenAPI document show the bearer scheme.
  const marked = list.map((def) => (isTokenRoute(def.method, def.path) ? { ...def, bearer: true } : def));
  // The routes answered outside this list, described beside their code (server/http/openapi.ts).
  const described = () => {
    const ours = new Set(marked.map((def) => `${def.method.toUpperCase()} ${def.path}`));
    return [authLibraryOperations(auth, ours), metaOperations(), ...(services.oauth ? [oauthOperations()] : [])];
  };
  marked.push(openApiRoute(() => marked, described));
  assertPathsOnce(list.concat(marked.slice(-1)), ownerOf);
  return marked;
}
