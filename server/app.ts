/**
 * Builds the Express application: the edge in DESIGN.md's order, the auth library's mount, the
 * API routes, then the one error mapper. The services it is built from are made in services.ts.
 */
import express, { Router } from "express";
import { AUTH_BASE_PATH } from "./auth/auth.js";
import { authMount, failureLimits, perIpSignInLimits } from "./auth/mount.js";
import { authenticate, bodyParser, clientAddress, sameSiteCheck, securityHeaders } from "./http/edge.js";
import { clientApp } from "./http/client-app.js";
import { errorHandler, notFoundHandler } from "./http/error-handler.js";
import { metaRouter } from "./http/meta.js";
import { requestLogger } from "./http/request-log.js";
import { mfaGate } from "./http/mfa-gate.js";
import { mount, type RouteDef } from "./http/route.js";
import { ensureBootstrapped } from "./modules/locations/bootstrap.js";
import { tokenAuthenticate, tokenGate } from "./modules/tokens/gate.js";
import { authorizeRouter } from "./oauth/authorize.js";
import { mcpLimit } from "./oauth/limits.js";
import { metadataRouter } from "./oauth/metadata.js";
import { tokenRouter } from "./oauth/token-endpoint.js";
import { apiRoutes } from "./routes.js";
import type { Services } from "./services.js";

export function createApp(services: Services): { app: express.Express; routes: RouteDef[] } {
  const { config, auth, logger, database, limits } = services;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustedProxies);
  app.set("query parser", "simple");

  app.use(clientAddress());
  app.use(securityHeaders(config));
  app.use(requestLogger(logger));
  app.use(sameSiteCheck(config));
  // Before anything that can change a session or a user, so the session cache forgets in time.
  app.use(services.sessions.guard());
  app.use(metaRouter());
  // Discovery, the token endpoint and /mcp take no cookie: each authenticates its own way.
  if (services.oauth) {
    app.use(metadataRouter(services.oauth));
    app.use(tokenRouter(services.oauth));
    // The MCP SDK is loaded on the first /mcp call, not into every process that never serves one.
    const oauth = services.oauth;
    let mcp: Promise<express.RequestHandler> | null = null;
    app.all("/mcp", mcpLimit(oauth.limits), (req, res, next) => {
      mcp ??= import("./mcp/route.js").then((m) => m.mcpRouter(oauth, config.undoWindowMs));
      mcp.then((handler) => handler(req, res, next), next);
    });
  }
  app.use(clientApp(config.clientDir));
  // Sign-up step 2 for a signed-in user who lacks it (spec Sign-up rule 5), run by the session lookup.
  app.use(authenticate(auth, database.db, services.sessions, { onSignedIn: (user) => ensureBootstrapped(database.db, user) }));
  app.use(tokenAuthenticate(database.db, services.tokens.hasher));
  app.use(mfaGate());
  app.use(tokenGate(services.tokens.limits));
  // The consent page needs the signed-in session (and a finished second factor).
  if (services.oauth) app.use(authorizeRouter(services.oauth));
  app.use(perIpSignInLimits(limits));
  app.use(bodyParser());
  app.use(failureLimits(limits));

  const routes = apiRoutes(services);
  const router = Router();
  mount(router, routes);
  app.use(router);
  // The library handles everything else under its mount; our sign-up is registered before it.
  app.all(`${AUTH_BASE_PATH}/*splat`, authMount(auth, limits, database.db));

  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return { app, routes };
}
