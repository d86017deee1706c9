/**
 * Starts the service: configuration, database (migrated), the app, the hourly repair job. SIGTERM
 * or SIGINT stops it: no new connections, open ones ended, the database closed, exit 0.
 */
import { writeSync } from "node:fs";
import type { Server } from "node:http";
import { pino } from "pino";
import path from "node:path";
import { createApp } from "./app.js";
import { createServices } from "./services.js";
import { withSignInProviders } from "./auth/providers.js";
import { loadConfig } from "./config.js";
import { answerClientError } from "./http/client-error.js";
import { migrate, openDatabase, sql, type Database } from "./db/client.js";
import { startJobs } from "./schedule.js";
import { needsSetup } from "./modules/admin/setup-code.js";
import type { ChangeNotifier } from "./sync/shapes/notifier.js";

async function main() {
  const configured = loadConfig();
  const logger = pino({ level: configured.logLevel });
  const config = await withSignInProviders(configured, logger);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, "pg") });
  await migrateOnce(database);
  const services = createServices(config, database, logger);
  const { app } = createApp(services);
  const stopJobs = startJobs(services);
  const fresh = await needsSetup(database.db);
  if (fresh) await services.setup.register(database.db);
  const server = app.listen(config.port, config.host, () => {
    const where = database.kind === "pglite" ? `embedded PGlite in ${path.join(config.dataDir, "pg")}` : "PostgreSQL";
    // The logger writes asynchronously; once what it holds is out, the start-up lines are written
    // synchronously (the log line through a synchronous logger of the same settings), so the setup
    // line really is the last one.
    logger.flush(() => {
      pino({ level: configured.logLevel }, pino.destination({ dest: 1, sync: true })).info(
        `Inventory service listening on ${config.publicUrl.origin} (${where})`,
      );
      writeSync(1, `Inventory service: ${config.publicUrl.origin}\n`);
      // The last start-up line on a fresh instance: whoever started it opens this to become its admin.
      // Printed, never sent to the logger, so the code stays out of collected logs.
      if (fresh) writeSync(1, `Set up this instance (first admin account): ${services.setup.url(config.publicUrl)}\n`);
    });
  });
  // What Node's HTTP parser refuses (headers past its limit, bytes that are not HTTP) in our error body.
  server.on("clientError", answerClientError);
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    setTimeout(() => {
      logger.error("shutdown took longer than 10 s: exiting anyway");
      process.exit(1);
    }, 10_000).unref();
    stopJobs()
      .then(() => stopServing(server, services.notifier))
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, "shutdown failed");
          process.exit(1);
        },
      );
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

/** How long a request already under way may take to finish once shutdown starts. */
const DRAIN_MS = 5000;

/**
 * Stops taking connections and ends the open ones, so the pools can close: idle keep-alive
 * connections at once (and each one as soon as its answer is out), live shape requests when the
 * notifier closes (which also hands back the LISTEN connection, without which the PostgreSQL pool
 * never finishes closing), anything else after DRAIN_MS.
 */
async function stopServing(server: Server, notifier: ChangeNotifier): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const cut = setTimeout(() => server.closeAllConnections(), DRAIN_MS);
  try {
    await notifier.close();
    await closed;
  } finally {
    clearInterval(sweep);
    clearTimeout(cut);
  }
}

/**
 * Replicas starting together on one PostgreSQL take turns under an advisory lock: the first
 * applies the migrations, the others then find nothing left to do (two at once collide).
 */
async function migrateOnce(database: Database): Promise<void> {
  if (database.kind !== "postgres") return migrate(database);
  await database.db.transaction(async (tx) => {
    // Held by this transaction's connection while the migrations run on others of the pool.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(7301460)`);
    await migrate(database);
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
