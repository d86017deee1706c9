/**
 * Catches up the shapes the wake stream names (wake.ts), a few at a time: each catch-up is one
 * short request (a paused stream resumes with a non-live request), so with the wake stream itself
 * and a push they stay under the six connections a browser gives one host.
 */
import type { SyncedTableName } from "../db/rows.js";
import type { ShapeFollower } from "./shapes.js";

/** Catch-ups at once. */
export const WAKE_CONCURRENCY = 3;
/**
 * In proxy mode, a woken shape whose catch-up brought nothing is asked again after these delays: a
 * real Electric in front (SH8) may not have replicated the change yet when the wake arrives. Served
 * by this server, a wake names only shapes with a message for the reader, so once is enough.
 */
export const EMPTY_RETRY_MS = [500, 2_000] as const;
const CATCH_UP_MS = 15_000;

export class WakePool {
  private readonly dirty = new Map<SyncedTableName, number>();
  /**
   * Shapes whose catch-up is under way. A wake for one of them waits for it to end: a second
   * catch-up at once would be resolved by the first one's answer (read before the new change),
   * pause the stream, and lose the change until some later wake.
   */
  private readonly inFlight = new Set<SyncedTableName>();
  private running = 0;
  /** Whether empty catch-ups are asked again (proxy mode). */
  retryEmpty = false;

  constructor(
    private readonly followerOf: (name: string) => ShapeFollower | undefined,
    private readonly signal: AbortSignal,
  ) {}

  /** Catches these shapes up (again, if one is under way: the change may have landed after its answer). */
  wake(names: Iterable<string>, retry = 0): void {
    for (const name of names) {
      const f = this.followerOf(name);
      if (f) this.dirty.set(f.name, Math.min(retry, this.dirty.get(f.name) ?? retry));
    }
    this.pump();
  }

  /** Catches these shapes up once, without asking again when nothing came (a sweep, not a wake). */
  sweep(names: Iterable<string>): void {
    this.wake(names, EMPTY_RETRY_MS.length);
  }

  private pump(): void {
    while (this.running < WAKE_CONCURRENCY && !this.signal.aborted) {
      const next = [...this.dirty].find(([name]) => !this.inFlight.has(name));
      if (!next) return;
      const [name, retry] = next;
      this.dirty.delete(name);
      this.inFlight.add(name);
      this.running++;
      void this.catchUp(name, retry).finally(() => {
        this.inFlight.delete(name);
        this.running--;
        this.pump();
      });
    }
  }

  private async catchUp(name: SyncedTableName, retry: number): Promise<void> {
    const f = this.followerOf(name);
    if (!f) return;
    const before = f.changes;
    await f.catchUp(CATCH_UP_MS);
    const delay = EMPTY_RETRY_MS[retry];
    if (!this.retryEmpty || f.changes !== before || delay === undefined || this.signal.aborted) return;
    const timer = setTimeout(() => this.wake([name], retry + 1), delay);
    this.signal.addEventListener("abort", () => clearTimeout(timer), { once: true });
  }
}
