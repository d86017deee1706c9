/**
 * The running service's parts, made once per process from configuration and the database: what
 * app.ts builds the Express application from, the route table reads and the jobs use.
 */
import type { Logger } from "pino";
import { createAuth, type Auth } from "./auth/auth.js";
import { bootstrapUser } from "./modules/locations/bootstrap.js";
import { createSignInLimits, type SignInLimits } from "./auth/limits.js";
import { SessionCache } from "./auth/session-cache.js";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import { safeErrorLogger } from "./http/log.js";
import { SetupCode } from "./modules/admin/setup-code.js";
import { createTokenLimits, type TokenLimits } from "./modules/tokens/limits.js";
import { useServerSecret } from "./db/secret-box.js";
import { TokenHasher } from "./modules/tokens/secret.js";
import { oauthContext, type OAuthContext } from "./oauth/context.js";
import { ChangeNotifier } from "./sync/shapes/notifier.js";
import { checkModules, modules, type AppModuleDeps } from "./modules/index.js";
import { installCommands } from "./modules/registry.js";
import { blobStoreOf } from "./modules/files/blob-store.js";
import { serviceDeps } from "./modules/deps.js";
import { createMailer } from "./mail/mailer.js";

// The modules' claims are checked and their commands installed once the process loads the list:
// before any service exists, so no write can run on a registry that is not the modules'.
checkModules(modules);
installCommands(modules.flatMap((m) => m.commands ?? []));

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
  /** The one-time setup code of this process (server/modules/admin/setup-code.ts); used only while no instance admin exists. */
  setup: SetupCode;
  /** What the modules' routes and jobs get (server/modules/manifest.ts), made once from the above. */
  moduleDeps: AppModuleDeps;
}

export function createServices(config: Config, database: Database, rootLogger: Logger): Services {
  // Errors are logged without the SQL parameters and other request data they carry (server/http/log.ts).
  const logger = safeErrorLogger(rootLogger);
  const notifier = new ChangeNotifier();
  notifier
    .start(database)
    .catch((err: unknown) => logger.error({ err }, "LISTEN sync_log failed: live shape requests will only answer when their 20 s wait ends"));
  // Secret field values are sealed with keys derived from the server secret (server/db/secret-box.ts).
  useServerSecret(config.secret);
  const tokens = { hasher: new TokenHasher(config.secret), limits: createTokenLimits(database) };
  const oauth = config.secure ? oauthContext(config, database) : null;
  const sessions = new SessionCache(config.sessionCacheMs);
  const auth = createAuth(database.db, config, logger, { userCreated: (user) => bootstrapUser(database.db, user) });
  const limits = createSignInLimits(database);
  const setup = new SetupCode();
  const moduleDeps: AppModuleDeps = {
    db: database.db,
    database,
    config,
    auth,
    logger,
    limits,
    setup,
    tokenHasher: tokens.hasher,
    store: blobStoreOf(config),
    mailer: createMailer(config, logger),
    service: serviceDeps({ db: database.db, config }),
  };
  return { config, database, auth, limits, logger, notifier, tokens, oauth, sessions, setup, moduleDeps };
}
