/**
 * What the live shape streams (shapes/live-streams.ts, SH6) and the wake streams
 * (live/wake-streams.ts, SH11) share: a set of open server-sent-event answers, each held until about
 * its `endsAt`, a keep-alive comment on one that has been quiet (proxies with an idle timeout keep
 * the connection), and one pass at a time over the change log after each commit (a commit during a
 * pass asks for one more). A pass that fails (the database went away) ends every stream; its client
 * asks again from its position.
 */
import type { Response } from "express";
import type { Db } from "../db/client.js";
import type { ChangeNotifier } from "./shapes/notifier.js";

export interface HeldStream {
  res: Response;
  /** The log position the stream has been sent (or told about) up to. */
  position: number;
  /** The log position up to which the reader's scope is known to be current. */
  checked: number;
  endsAt: number;
  lastWrite: number;
}

export abstract class HeldStreams<S extends HeldStream> {
  protected readonly streams = new Set<S>();
  private running = false;
  private pending = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    protected readonly db: Db,
    protected readonly notifier: ChangeNotifier,
    private readonly timing: {
      /** How long a stream is held, spread by `spread` either way so that streams opened together do not all come back together. */
      holdMs: number;
      spread: number;
      tickMs: number;
      keepAliveMs: number;
      maxBufferedBytes: number;
    },
  ) {
    notifier.onChange(() => this.schedule());
  }

  get size(): number {
    return this.streams.size;
  }

  /** One pass: what changed since the streams' positions, written to each. */
  protected abstract pass(): Promise<void>;

  /** What a stream is told as it ends (nothing by default). */
  protected farewell(_stream: S): string | undefined {
    return undefined;
  }

  /** When a stream opened `now` ends (the client then asks again, authenticated as any request is). */
  endsAt(now: number): number {
    return now + Math.round(this.timing.holdMs * (1 - this.timing.spread + Math.random() * 2 * this.timing.spread));
  }

  /** Holds a stream sent everything up to its position; `seen` is the notifier's version before that read. */
  add(stream: S, seen: number): void {
    if (this.notifier.closed) return void stream.res.end();
    this.streams.add(stream);
    stream.res.once("close", () => this.drop(stream));
    this.timer ??= setInterval(() => this.tick(), this.timing.tickMs).unref();
    if (this.notifier.version !== seen) this.schedule();
  }

  /** Writes to a stream; one whose client stopped reading while too much waits is ended. */
  protected send(stream: S, chunk: string, now: number): void {
    stream.res.write(chunk);
    stream.lastWrite = now;
    if (stream.res.writableLength > this.timing.maxBufferedBytes) this.end(stream);
  }

  protected end(stream: S): void {
    this.drop(stream);
    if (!stream.res.writableEnded) stream.res.end(this.farewell(stream));
  }

  private drop(stream: S): void {
    this.streams.delete(stream);
    if (!this.streams.size && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private tick(): void {
    const now = Date.now();
    for (const s of this.streams) {
      if (now >= s.endsAt) this.end(s);
      else if (now - s.lastWrite >= this.timing.keepAliveMs) {
        s.res.write(": keep-alive\n\n");
        s.lastWrite = now;
      }
    }
  }

  private schedule(): void {
    if (this.notifier.closed) {
      for (const s of [...this.streams]) this.end(s);
      return;
    }
    if (this.running) {
      this.pending = true;
      return;
    }
    this.running = true;
    void this.run();
  }

  private async run(): Promise<void> {
    try {
      do {
        this.pending = false;
        await this.pass();
      } while (this.pending && !this.notifier.closed);
    } catch {
      for (const s of [...this.streams]) this.end(s);
    } finally {
      this.running = false;
    }
  }
}
