/**
 * The job schedule: every module's periodic jobs and queue workers (its manifest's `jobs`), and the
 * jobs that are no module's (AI costs, change-log compaction), started by server/main.ts. It composes
 * the domains, as the route table does, so it stands beside it and not in the queue library
 * (server/jobs/). Each job is idempotent, so several replicas running it is harmless.
 */
import type { Services } from "./services.js";
import { costLaterCalls } from "./ai/later-costs.js";
import { modules } from "./modules/index.js";
import { periodicJob } from "./modules/manifest.js";
import { compactSyncLog } from "./sync/compaction.js";

/** The change log grows by at most this much writing between two compactions. */
const COMPACT_EVERY_MS = 5 * 60_000;

const infrastructure = [
  // AI calls whose model the price table did not know when they ran, costed once it does.
  periodicJob("AI costs", "costing AI calls later failed", async ({ db, logger }) => {
    const costed = await costLaterCalls(db);
    if (costed) logger.info({ costed }, "AI calls costed from the price table");
  }),
  // The change log kept to one entry per row and location, and deletes for the retention (SH10).
  periodicJob(
    "change-log compaction",
    "compacting the change log failed",
    async ({ db, config, logger }) => {
      const run = await compactSyncLog(db, { tombstoneMaxAgeMs: config.syncTombstoneMs });
      if (run.superseded || run.tombstones) logger.debug({ ...run }, "change log compacted");
    },
    COMPACT_EVERY_MS,
  ),
];

/** Starts them; the answer stops them one after the other (and resolves once the workers handed their runs back). */
export function startJobs(services: Services): () => Promise<void> {
  const jobs = [...modules.flatMap((m) => m.jobs ?? []), ...infrastructure];
  const stops = jobs.map((job) => job.start(services.moduleDeps));
  return async () => {
    for (const stop of stops) await stop();
  };
}
