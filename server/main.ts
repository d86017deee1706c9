/** Starts the service: configuration, database (migrated), the app, the hourly repair job. */
import { pino } from "pino";
import path from "node:path";
import { createApp, createServices } from "./app.js";
import { withSignInProviders } from "./auth/providers.js";
import { loadConfig } from "./config.js";
import { migrate, openDatabase } from "./db/client.js";
import { startJobs } from "./jobs/index.js";

async function main() {
  const configured = loadConfig();
  const logger = pino({ level: configured.logLevel });
  const config = await withSignInProviders(configured, logger);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: path.join(config.dataDir, "pg") });
  await migrate(database);
  const services = createServices(config, database, logger);
  const { app } = createApp(services);
  const stopJobs = startJobs(services);
  const server = app.listen(config.port, config.host, () => {
    const where = database.kind === "pglite" ? `embedded PGlite in ${path.join(config.dataDir, "pg")}` : "PostgreSQL";
    logger.info(`Inventory service listening on ${config.publicUrl.origin} (${where})`);
    console.log(`Inventory service: ${config.publicUrl.origin}`);
  });
  const shutdown = () => {
    stopJobs();
    server.close(() => void database.close().then(() => process.exit(0)));
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.on("SIGINT", shutdown);
  process.on("SIGTERM", shutdown);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
