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
import { authenticate, bodyParser, clientAddress, sameSiteCheck } from "./http/edge.js";
import { clientApp } from "./http/client-app.js";
import { errorHandler, notFoundHandler } from "./http/error-handler.js";
import { mfaGate } from "./http/mfa-gate.js";
import { mount, type RouteDef } from "./http/route.js";
import { tokenAuthenticate, tokenGate } from "./modules/tokens/gate.js";
import { createTokenLimits, type TokenLimits } from "./modules/tokens/limits.js";
import { TokenHasher } from "./modules/tokens/secret.js";
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
}

export function createServices(config: Config, database: Database, logger: Logger): Services {
  const notifier = new ChangeNotifier();
  notifier.start(database).catch((err: unknown) => logger.error({ err }, "LISTEN sync_log failed: live shape requests will only answer when their 20 s wait ends"));
  const tokens = { hasher: new TokenHasher(config.secret), limits: createTokenLimits(database) };
  return { config, database, auth: createAuth(database.db, config, logger), limits: createSignInLimits(database), logger, notifier, tokens };
}

export function createApp(services: Services): { app: express.Express; routes: RouteDef[] } {
  const { config, auth, logger, database, limits } = services;
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", config.trustedProxies);
  app.set("query parser", "simple");

  app.use(clientAddress());
  app.use(
    pinoHttp({
      logger,
      genReqId: (req) => (req as express.Request).id,
      // Never log secrets: no headers (cookies, bearer tokens), no bodies.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url.split("?")[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(sameSiteCheck(config));
  app.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.use(clientApp(config.clientDir));
  app.use(authenticate(auth, database.db));
  app.use(tokenAuthenticate(database.db, services.tokens.hasher));
  app.use(mfaGate());
  app.use(tokenGate(services.tokens.limits));
  app.use(perIpSignInLimits(limits));
  app.use(bodyParser());
  app.use(failureLimits(limits));

  const routes = apiRoutes(services);
  const router = Router();
  mount(router, routes);
  app.use(router);
  // The library handles everything else under its mount; our sign-up is registered before it.
  app.all(`${AUTH_BASE_PATH}/*splat`, authMount(auth, limits));

  app.use(notFoundHandler());
  app.use(errorHandler(logger));
  return { app, routes };
}
