/**
 * Wakes live shape requests when a commit touched the change log (sync/SPEC.md SH6): one LISTEN
 * per process on the `sync_log` channel that the log trigger NOTIFYs after each commit.
 */
import type { Database } from "../../db/client.js";

export class ChangeNotifier {
  /** Bumped on every notification; a waiter that saw an older value returns at once. */
  version = 0;
  /** Set on shutdown: live requests stop waiting and end. */
  closed = false;
  private waiters = new Set<() => void>();
  private stop: (() => Promise<void>) | null = null;
  private started: Promise<void> | null = null;

  /** Starts listening; waiters wait for this before they count on being woken. */
  start(database: Database): Promise<void> {
    this.started ??= database.listen("sync_log", () => this.bump()).then((stop) => {
      this.stop = stop;
    });
    return this.started;
  }

  bump(): void {
    this.version++;
    for (const w of this.waiters) w();
    this.waiters.clear();
  }

  /** Resolves when a change arrives after `seen`, after `ms`, or when `signal` aborts. */
  async wait(seen: number, ms: number, signal?: AbortSignal): Promise<void> {
    await this.started;
    if (this.closed || this.version !== seen || ms <= 0 || signal?.aborted) return;
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal?.addEventListener("abort", done);
    });
  }

  /**
   * Shutdown: live requests are woken first (they see `closed` and end), then the LISTEN
   * connection goes back to the pool, which cannot finish closing while it is out.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.bump();
    await this.started?.catch(() => undefined);
    const stop = this.stop;
    this.stop = null;
    await stop?.();
  }
}
