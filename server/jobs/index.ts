/** In-process periodic jobs. Each is idempotent, so several replicas running it is harmless. */
import type { Services } from "../services.js";
import { repairBootstraps } from "../modules/locations/bootstrap.js";
import { startNudges } from "../modules/meters/nudges.js";
import { startPushDispatcher } from "../modules/notifications/dispatcher.js";

const HOUR = 3600_000;

export function startJobs(services: Services): () => void {
  const { database, logger } = services;
  const repair = async () => {
    try {
      const fixed = await repairBootstraps(database.db);
      if (fixed) logger.warn({ fixed }, "bootstrap repair: created missing owner records");
    } catch (err) {
      logger.error({ err }, "bootstrap repair failed");
    }
  };
  void repair();
  const timer = setInterval(() => void repair(), HOUR);
  timer.unref();
  const stopNudges = startNudges(services);
  const stopPush = startPushDispatcher({ db: database.db, config: services.config, logger });
  return () => {
    clearInterval(timer);
    stopNudges();
    stopPush();
  };
}
