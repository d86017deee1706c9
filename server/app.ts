/**
 * Builds the Express application: the edge in DESIGN.md's order, the auth library's mount, the
 * API routes, then the one error mapper.
 */
import express, { Router } from "express";
import { pinoHttp } from "pino-http";
import type { Logger } from "pino";
import { AUTH_BASE_PATH, createAuth, type Auth } from "./auth/auth.js";
import { createSignInLimits, type SignInLimits } from "./auth/limits.js";
import { authMount, failureLimits, perIpSignInLimits } from "./auth/mount.js";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import { SessionCache } from "./auth/session-cache.js";
import { authenticate, bodyParser, clientAddress, sameSiteCheck, securityHeaders } from "./http/edge.js";
import { clientApp } from "./http/client-app.js";
import { errorHandler, notFoundHandler } from "./http/error-handler.js";
import { safeErrorLogger, serializeError } from "./http/log.js";
import { mfaGate } from "./http/mfa-gate.js";
import { mount, type RouteDef } from "./http/route.js";
import { tokenAuthenticate, tokenGate } from "./modules/tokens/gate.js";
import { createTokenLimits, type TokenLimits } from "./modules/tokens/limits.js";
import { TokenHasher } from "./modules/tokens/secret.js";
import { authorizeRouter } from "./oauth/authorize.js";
import { oauthContext, type OAuthContext } from "./oauth/context.js";
import { mcpLimit } from "./oauth/limits.js";
import { metadataRouter } from "./oauth/metadata.js";
import { tokenRouter } from "./oauth/token-endpoint.js";
import { apiRoutes } from "./routes.js";
import { ChangeNotifier } from "./sync/shapes/notifier.js";

export interface Services {
  config: Config;
  database: Database;
  auth: Auth;
  /** Sign-in limits (server/auth/limits.ts): in memory, or in PostgreSQL when replicas share it. */
  limits: SignInLimits;
  logger: Logger;
  /** Wakes live shape requests on commits (one LISTEN per process). */
  notifier: ChangeNotifier;
  /** Personal tokens: the keyed hash of their secrets and their per-token rate limits. */
  tokens: { hasher: TokenHasher; limits: TokenLimits };
  /** The OAuth authorization server and /mcp: only when SVC_PUBLIC_URL is https (spec "OAuth for MCP clients"). */
  oauth: OAuthContext | null;
  /** Resolved sessions remembered for a few seconds (server/auth/session-cache.ts). */
  sessions: SessionCache;
}

export function createServices(config: Config, database: Database, rootLogger: Logger): Services {
  // Errors are logged without the SQL parameters and other request data they carry (server/http/log.ts).
  const logger = safeErrorLogger(rootLogger);
  const notifier = new ChangeNotifier();
  notifier.start(database).catch((err: unknown) => logger.error({ err }, "LISTEN sync_log failed: live shape requests will only answer when their 20 s wait ends"));
  const tokens = { hasher: new TokenHasher(config.secret), limits: createTokenLimits(database) };
  const oauth = config.secure ? oauthContext(config, database) : null;
  const sessions = new SessionCache(config.sessionCacheMs);
  return { config, database, auth: createAuth(database.db, config, logger), limits: createSignInLimits(database), logger, notifier, tokens, oauth, sessions };
}

export function createApp(services: Services): { app: express.Express; routes: RouteDef[] } {
  const { config, auth, logger, database, limits } = services;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustedProxies);
  app.set("query parser", "simple");

  app.use(clientAddress());
  app.use(securityHeaders(config));
  app.use(
    pinoHttp({
      logger,
      genReqId: (req) => (req as express.Request).id,
      // Never log secrets: no headers (cookies, bearer tokens), no bodies.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url.split("?")[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        err: serializeError,
      },
    }),
  );
  app.use(sameSiteCheck(config));
  // Before anything that can change a session or a user, so the session cache forgets in time.
  app.use(services.sessions.guard());
  app.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });
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
  app.use(authenticate(auth, database.db, services.sessions));
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
