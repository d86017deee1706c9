/**
 * The job schedule: the in-process periodic jobs and the queue workers, started by server/main.ts.
 * It composes the domains, as the route table does, so it stands beside it and not in the queue
 * library (server/jobs/). Each job is idempotent, so several replicas running it is harmless.
 */
import type { Services } from "./services.js";
import { costLaterCalls } from "./ai/later-costs.js";
import { repairBootstraps } from "./modules/locations/bootstrap.js";
import { purgeDueLocations } from "./modules/locations/purge.js";
import { startNudges } from "./modules/meters/nudges.js";
import { startPushDispatcher } from "./modules/notifications/dispatcher.js";
import { startOverdueNotices } from "./modules/loans/overdue.js";
import { startWebhookWorker } from "./modules/webhooks/worker.js";
import { startExtractionWorker } from "./modules/extractions/worker.js";
import { blobStoreOf } from "./modules/files/blob-store.js";
import { startReportWorker } from "./modules/reports/worker.js";
import { createMailer } from "./mail/mailer.js";
import { exportDirOf, startExportWorker } from "./modules/exports/worker.js";
import { compactSyncLog } from "./sync/compaction.js";

const HOUR = 3600_000;
/** The change log grows by at most this much writing between two compactions. */
const COMPACT_EVERY_MS = 5 * 60_000;

/** Starts them; the answer stops them (and resolves once the extraction worker handed its runs back). */
export function startJobs(services: Services): () => Promise<void> {
  const { database, logger } = services;
  const repair = async () => {
    try {
      const fixed = await repairBootstraps(database.db);
      if (fixed) logger.warn({ fixed }, "bootstrap repair: created missing owner records");
    } catch (err) {
      logger.error({ err }, "bootstrap repair failed");
    }
  };
  // AI calls whose model the price table did not know when they ran, costed once it does.
  const costLater = async () => {
    try {
      const costed = await costLaterCalls(database.db);
      if (costed) logger.info({ costed }, "AI calls costed from the price table");
    } catch (err) {
      logger.error({ err }, "costing AI calls later failed");
    }
  };
  // Locations whose 30 days in the trash are over, removed for good with their photos.
  const purge = async () => {
    try {
      await purgeDueLocations({ db: database.db, store: blobStoreOf(services.config), logger });
    } catch (err) {
      logger.error({ err }, "purging trashed locations failed");
    }
  };
  // The change log kept to one entry per row and location, and deletes for the retention (SH10).
  const compact = async () => {
    try {
      const run = await compactSyncLog(database.db, { tombstoneMaxAgeMs: services.config.syncTombstoneMs });
      if (run.superseded || run.tombstones) logger.debug({ ...run }, "change log compacted");
    } catch (err) {
      logger.error({ err }, "compacting the change log failed");
    }
  };
  void repair();
  void costLater();
  void purge();
  void compact();
  const compactTimer = setInterval(() => void compact(), COMPACT_EVERY_MS);
  compactTimer.unref();
  const timer = setInterval(() => {
    void repair();
    void costLater();
    void purge();
  }, HOUR);
  timer.unref();
  const stopNudges = startNudges({ db: database.db, logger });
  const stopPush = startPushDispatcher({ db: database.db, config: services.config, logger });
  const stopOverdue = startOverdueNotices({ db: database.db, config: services.config, logger });
  const webhooks = startWebhookWorker({ db: database.db, config: services.config, logger });
  const { config } = services;
  const extractions = config.aiConcurrency
    ? startExtractionWorker({ db: database.db, config, store: blobStoreOf(config), logger, concurrency: config.aiConcurrency })
    : null;
  const reports = startReportWorker({ db: database.db, config, store: blobStoreOf(config), mailer: createMailer(config, logger), logger });
  const exportsWorker = startExportWorker({
    db: database.db,
    store: blobStoreOf(config),
    dir: exportDirOf(config.dataDir),
    logger,
    origin: config.publicUrl.origin,
  });
  return async () => {
    clearInterval(timer);
    clearInterval(compactTimer);
    await reports.stop();
    stopNudges();
    stopPush();
    stopOverdue();
    await webhooks.stop();
    await extractions?.stop();
    await exportsWorker.stop();
  };
}
