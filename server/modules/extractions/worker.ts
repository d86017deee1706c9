/**
 * The extraction worker in the server process: every `pollMs` it claims what is due (queue.ts)
 * up to `concurrency` runs at once and runs them (run.ts). Stopping aborts calls in flight and
 * hands their runs back to the queue; a killed process leaves them to their leases instead.
 */
import type { Logger } from "pino";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import type { BlobStore } from "../files/storage.js";
import { claimDue, releaseClaims } from "./queue.js";
import { runExtraction } from "./run.js";

export interface WorkerDeps {
  db: Db;
  config: Pick<Config, "ai" | "aiAllowLoopback" | "aiLeaseMs">;
  store: BlobStore;
  logger: Logger;
  pollMs?: number;
  concurrency?: number;
}

export interface Worker {
  /** Claims and runs what is due now, until nothing is (tests call this instead of waiting for the timer). */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export function startExtractionWorker(deps: WorkerDeps, opts: { timer?: boolean } = {}): Worker {
  const { db, logger } = deps;
  const concurrency = deps.concurrency ?? 2;
  const abort = new AbortController();
  const inFlight = new Set<string>();
  let stopped = false;
  let round: Promise<number> | null = null;

  const once = async (): Promise<number> => {
    const free = concurrency - inFlight.size;
    if (free <= 0 || stopped) return 0;
    const claimed = await claimDue(db, new Date(), deps.config.aiLeaseMs, free);
    await Promise.all(
      claimed.map(async (run) => {
        inFlight.add(run.id);
        try {
          await runExtraction({ db, config: deps.config, store: deps.store, logger, signal: abort.signal }, run);
        } catch (err) {
          // The run stays `running` and is taken again when its lease ends (a database blip, a bad photo).
          logger.error({ err, extractionId: run.id }, "extraction failed to run");
        } finally {
          inFlight.delete(run.id);
        }
      }),
    );
    return claimed.length;
  };

  /** One round at a time: a timer tick during a long round waits for it. */
  const tick = (): Promise<number> => {
    round ??= once().finally(() => (round = null));
    return round;
  };

  const timer =
    opts.timer === false ? null : setInterval(() => void tick().catch((err: unknown) => logger.error({ err }, "extraction claim failed")), deps.pollMs ?? 1000);
  timer?.unref();

  return {
    async drain() {
      let total = 0;
      for (;;) {
        const n = await tick();
        if (!n) return total;
        total += n;
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      const left = [...inFlight];
      abort.abort();
      await round?.catch(() => undefined);
      await releaseClaims(db, left).catch((err: unknown) => logger.error({ err }, "could not hand extractions back"));
    },
  };
}
