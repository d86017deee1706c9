/**
 * Wakes live shape requests when a commit touched the change log (sync/SPEC.md SH6): one LISTEN
 * per process on the `sync_log` channel that the log trigger NOTIFYs after each commit. When the
 * LISTEN connection dies (PostgreSQL restarted), every waiter is woken (it reads the log again, so
 * a commit missed meanwhile is not lost) and the LISTEN is made again, every RELISTEN_MS until it
 * works.
 */
import type { Database } from "../../db/client.js";

export const RELISTEN_MS = 1000;

export class ChangeNotifier {
  /** Bumped on every notification; a waiter that saw an older value returns at once. */
  version = 0;
  /** Set on shutdown: live requests stop waiting and end. */
  closed = false;
  private waiters = new Set<() => void>();
  /** Called on every notification until removed (the open SSE streams, live-streams.ts). */
  private listeners = new Set<() => void>();
  private stop: (() => Promise<void>) | null = null;
  private started: Promise<void> | null = null;
  private relisten: NodeJS.Timeout | undefined;

  /** Starts listening; waiters wait for this before they count on being woken. */
  start(database: Database): Promise<void> {
    this.started ??= this.subscribe(database);
    return this.started;
  }

  private async subscribe(database: Database): Promise<void> {
    const stop = await database.listen(
      "sync_log",
      () => this.bump(),
      () => {
        if (this.stop !== stop) return;
        this.stop = null;
        this.bump();
        void stop();
        this.scheduleRelisten(database);
      },
    );
    if (this.closed) return stop();
    this.stop = stop;
  }

  private scheduleRelisten(database: Database): void {
    if (this.closed) return;
    this.relisten = setTimeout(() => {
      this.subscribe(database).then(
        // Commits made while no one listened: waiters read the log again.
        () => this.bump(),
        () => this.scheduleRelisten(database),
      );
    }, RELISTEN_MS);
  }

  bump(): void {
    this.version++;
    for (const w of this.waiters) w();
    this.waiters.clear();
    for (const l of this.listeners) l();
  }

  /** Calls `listener` on every notification (and on close); returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
    clearTimeout(this.relisten);
    this.bump();
    await this.started?.catch(() => undefined);
    const stop = this.stop;
    this.stop = null;
    await stop?.();
  }
}
