/**
 * The loop the leased-queue workers share (leased-queue.ts): every `pollMs` a round claims what is
 * due and runs it. One round at a time: a timer tick during a long round waits for it. Stopping
 * ends the timer, aborts `signal` (a job ends early at its next check), waits for the round and
 * hands the jobs still in flight back to the queue; a killed process leaves them to their leases.
 */
import type { Logger } from "pino";

export interface PollLoopOptions<J extends { id: string }> {
  /** Claims up to `free` due jobs (one round's worth). */
  claim: (free: number) => Promise<J[]>;
  /** Runs one job; the jobs of a round run side by side. */
  run: (job: J, signal: AbortSignal) => Promise<void>;
  /**
   * A job that threw: it stays claimed and is taken again when its lease ends (a database blip).
   * Without it, a job that throws fails its round.
   */
  failed?: (err: unknown, job: J) => void;
  /** Hands the jobs in flight at stop back to the queue (none: they wait out their leases). */
  release?: (ids: string[]) => Promise<void>;
  logger: Logger;
  /** What the log calls a failed round and a failed hand-back ("extraction"). */
  what: string;
  /** How many jobs at once (a round claims only what is free). */
  concurrency?: number;
  pollMs: number;
  /** false: no timer (tests call drain()). */
  timer?: boolean | undefined;
}

export interface PollLoop {
  /** Runs rounds until one finds nothing due; the number of jobs run (tests call this instead of waiting for the timer). */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

export function startPollLoop<J extends { id: string }>(opts: PollLoopOptions<J>): PollLoop {
  const { logger, what } = opts;
  const concurrency = opts.concurrency ?? 1;
  const abort = new AbortController();
  const inFlight = new Set<string>();
  let stopped = false;
  let round: Promise<number> | null = null;

  const once = async (): Promise<number> => {
    const free = concurrency - inFlight.size;
    if (free <= 0 || stopped) return 0;
    const claimed = await opts.claim(free);
    await Promise.all(
      claimed.map(async (job) => {
        inFlight.add(job.id);
        try {
          await opts.run(job, abort.signal);
        } catch (err) {
          if (!opts.failed) throw err;
          opts.failed(err, job);
        } finally {
          inFlight.delete(job.id);
        }
      }),
    );
    return claimed.length;
  };
  const tick = (): Promise<number> => {
    round ??= once().finally(() => (round = null));
    return round;
  };

  const timer =
    opts.timer === false ? null : setInterval(() => void tick().catch((err: unknown) => logger.error({ err }, `${what} round failed`)), opts.pollMs);
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
      if (opts.release && left.length) await opts.release(left).catch((err: unknown) => logger.error({ err }, `could not hand ${what} jobs back`));
    },
  };
}
