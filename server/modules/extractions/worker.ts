/**
 * The extraction worker in the server process: every `pollMs` it claims what is due (queue.ts)
 * up to `concurrency` runs at once and runs them (run.ts), in the shared loop
 * (server/jobs/poll-loop.ts). Stopping aborts calls in flight and hands their runs back to the
 * queue; a killed process leaves them to their leases instead.
 */
import type { Logger } from "pino";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import type { BlobStore } from "../files/storage.js";
import { startPollLoop, type PollLoop } from "../../jobs/poll-loop.js";
import { claimDue, releaseClaims } from "../../ai/extraction-queue.js";
import { runExtraction } from "./run.js";

export interface WorkerDeps {
  db: Db;
  config: Pick<Config, "ai" | "aiAllowLoopback" | "aiLeaseMs">;
  store: BlobStore;
  logger: Logger;
  pollMs?: number;
  concurrency?: number;
}

/** drain(): claims and runs what is due now, until nothing is (tests call this instead of waiting for the timer). */
export type Worker = PollLoop;

export function startExtractionWorker(deps: WorkerDeps, opts: { timer?: boolean } = {}): Worker {
  const { db, logger } = deps;
  return startPollLoop({
    claim: (free) => claimDue(db, new Date(), deps.config.aiLeaseMs, free),
    run: (run, signal) => runExtraction({ db, config: deps.config, store: deps.store, logger, signal }, run),
    // The run stays `running` and is taken again when its lease ends (a database blip, a bad photo).
    failed: (err, run) => logger.error({ err, extractionId: run.id }, "extraction failed to run"),
    release: (ids) => releaseClaims(db, ids),
    logger,
    what: "extraction",
    concurrency: deps.concurrency ?? 2,
    pollMs: deps.pollMs ?? 1000,
    timer: opts.timer,
  });
}
