/** Every API route, by domain. The OpenAPI document is generated from this same list. */
import type { Services } from "./services.js";
import { signUpRoute } from "./modules/account/signup.js";
import type { RouteDef } from "./http/route.js";
import { openApiRoute } from "./http/openapi.js";
import { metaOperations } from "./http/meta.js";
import { authLibraryOperations } from "./http/openapi-auth.js";
import { oauthOperations } from "./oauth/openapi.js";
import { historyRoutes } from "./modules/history/routes.js";
import { locationRoutes } from "./modules/locations/routes.js";
import { placeRoutes } from "./modules/places/routes.js";
import { registryRoutes } from "./modules/registries/routes.js";
import { thingRoutes } from "./modules/things/routes.js";
import { inboxRoutes } from "./modules/inbox/routes.js";
import { fileRoutes } from "./modules/files/routes.js";
import { pushRoutes } from "./sync/push.js";
import { recordDrops } from "./modules/inbox/drops.js";
import { executeInTx } from "./modules/registry.js";
import { shapeRoutes } from "./sync/shapes/route.js";
import { managedAccountRoutes } from "./modules/managed-accounts/routes.js";
import { memberRoutes } from "./modules/members/routes.js";
import { accountRoutes } from "./modules/account/routes.js";
import { isTokenRoute } from "./modules/tokens/allow-list.js";
import { tokenRoutes } from "./modules/tokens/routes.js";
import { grantRoutes } from "./oauth/grant-routes.js";
import { templateRoutes } from "./modules/templates/routes.js";
import { secretRoutes } from "./modules/secrets/routes.js";
import { boxCheckRoutes } from "./modules/box-checks/routes.js";
import { codeRoutes } from "./modules/codes/routes.js";
import { meterRoutes } from "./modules/meters/routes.js";
import { webhookRoutes } from "./modules/webhooks/routes.js";
import { loanRoutes } from "./modules/loans/routes.js";
import { notificationRoutes } from "./modules/notifications/routes.js";
import { extractionRoutes } from "./modules/extractions/routes.js";
import { aiSettingsRoutes } from "./modules/ai-settings/routes.js";
import { movePrintRoutes } from "./modules/moves/print-routes.js";
import { moveRoutes } from "./modules/moves/routes.js";
import { reportRoutes } from "./modules/reports/routes.js";
import { createShareLimits } from "./modules/share-links/limits.js";
import { shareLinkRoutes } from "./modules/share-links/routes.js";
import { adminRoutes } from "./modules/admin/routes.js";
import { hintRoutes } from "./modules/hints/routes.js";
import { captureSettingRoutes } from "./modules/capture-settings/routes.js";
import { exportRoutes } from "./modules/exports/routes.js";
import { auditRoutes } from "./modules/audit/routes.js";

export function apiRoutes(services: Services): RouteDef[] {
  const { database, config, auth } = services;
  const deps = { db: database.db, config, auth };
  const list: RouteDef[] = [
    signUpRoute(deps),
    ...locationRoutes(deps),
    ...placeRoutes(deps),
    ...registryRoutes(deps),
    ...thingRoutes(deps),
    ...historyRoutes(deps),
    ...memberRoutes({ ...deps, logger: services.logger, limits: services.limits }),
    ...accountRoutes({ ...deps, limits: services.limits, logger: services.logger }),
    ...managedAccountRoutes({ ...deps, limits: services.limits }),
    ...inboxRoutes(deps),
    ...fileRoutes(deps),
    ...pushRoutes(deps, { executeInTx, recordDrops }),
    ...shapeRoutes(deps, services.notifier),
    ...tokenRoutes(deps, services.tokens.hasher),
    ...grantRoutes(deps),
    ...templateRoutes(deps),
    ...secretRoutes({ ...deps, limits: services.limits }),
    ...boxCheckRoutes(deps),
    ...codeRoutes(deps),
    ...meterRoutes(deps),
    ...webhookRoutes(deps),
    ...notificationRoutes(deps),
    ...extractionRoutes(deps),
    ...aiSettingsRoutes(deps),
    ...movePrintRoutes(deps),
    ...loanRoutes(deps),
    ...moveRoutes(deps),
    ...reportRoutes(deps),
    ...shareLinkRoutes({ ...deps, shareLimits: createShareLimits(services.database) }),
    ...exportRoutes({ ...deps, limits: services.limits }),
    ...adminRoutes({ ...deps, limits: services.limits, setup: services.setup }),
    ...hintRoutes(deps),
    ...captureSettingRoutes(deps),
    ...auditRoutes(deps),
  ];
  // The token allow-list decides; the flag only lets the OpenAPI document show the bearer scheme.
  const marked = list.map((def) => (isTokenRoute(def.method, def.path) ? { ...def, bearer: true } : def));
  // The routes answered outside this list, described beside their code (server/http/openapi.ts).
  const described = () => {
    const ours = new Set(marked.map((def) => `${def.method.toUpperCase()} ${def.path}`));
    return [authLibraryOperations(auth, ours), metaOperations(), ...(services.oauth ? [oauthOperations()] : [])];
  };
  marked.push(openApiRoute(() => marked, described));
  return marked;
}
