/**
 * The open wake streams of this process (sync/SPEC.md SH11): on each commit, ONE read of the log
 * since the oldest stream's position says which shapes changed where (wake-query.ts), and each
 * stream is sent the names of the shapes that changed in places its reader can read. Names only:
 * the rows still come through each shape's own request, scoped and checked there.
 *
 * A stream keeps its reader's readable locations and accounts. Before any entry is matched, every
 * stream behind an entry that may change scopes (memberships, locations: SH4) reads them again,
 * once per actor; a reader whose scope changed is woken for every shape (their handles changed,
 * each shape's next request answers 409 must-refetch, SH7), as is one whose own membership or one
 * of whose locations changed. A place the reader cannot read never wakes them.
 */
import type { Response } from "express";
import { SHAPE_NAMES, type ShapeName } from "../../../sync/shapes.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { readableAccounts, readableLocations } from "../../access/readable.js";
import type { ChangeNotifier } from "../shapes/notifier.js";
import { headAndScopeChange } from "../shapes/query.js";
import { wakeEntries, type WakeEntry } from "./wake-query.js";

/** How long one stream stays open, give or take a fifth; the client then asks again, authenticated. */
export const WAKE_MS = 25_000;
/** A comment line this often, so that proxies with an idle timeout keep the connection. */
export const WAKE_KEEP_ALIVE_MS = 10_000;
const TICK_MS = 2_500;
/** Open streams per session (or token) at most: a new one ends the oldest (a reloaded tab's). */
export const WAKE_STREAMS_PER_SESSION = 3;
const MAX_BUFFERED_BYTES = 256 * 1024;

export interface Readable {
  locations: ReadonlySet<string>;
  accounts: ReadonlySet<string>;
}

export interface WakeStream {
  res: Response;
  actor: Actor;
  readable: Readable;
  /** The log position the stream has been told about. */
  position: number;
  /** The log position up to which `readable` is known to be current. */
  checked: number;
  endsAt: number;
  lastWrite: number;
}

/** What a reader can read now, in its own transaction. */
export async function readableOf(db: Db, actor: Actor): Promise<Readable> {
  return withActor(db, actor, async (tx) => ({ locations: new Set(await readableLocations(tx)), accounts: new Set(await readableAccounts(tx)) }));
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>) => a.size === b.size && [...a].every((x) => b.has(x));

/** One SSE event: the shapes to catch up, and the log position they were read up to. */
export const wakeEvent = (shapes: readonly ShapeName[], position: number) =>
  `event: wake\nid: ${position}\ndata: ${JSON.stringify({ shapes, position: String(position) })}\n\n`;

/** The shapes among `entries` that `s` may read, after its position. */
export function shapesFor(s: Pick<WakeStream, "actor" | "readable" | "position">, entries: readonly WakeEntry[]): Set<ShapeName> {
  const out = new Set<ShapeName>();
  for (const e of entries) {
    if (e.last <= s.position) continue;
    const here = e.accountId !== null ? s.readable.accounts.has(e.accountId) : e.locationId !== null && s.readable.locations.has(e.locationId);
    if (!here) continue;
    if (e.userId !== null && e.userId !== s.actor.userId) continue;
    // The reader's own membership or a location it reads: its shapes' handles may have changed.
    if (e.shape === "locations" || (e.shape === "memberships" && e.userId === s.actor.userId)) return new Set(SHAPE_NAMES);
    out.add(e.shape);
  }
  return out;
}

const sessionKey = (actor: Actor) => actor.sessionId ?? actor.tokenId ?? `user:${actor.userId}`;
const actorKey = (a: Actor) => [a.userId, a.mfaProven, a.locationScope?.join(",") ?? "*", sessionKey(a)].join("|");

export class WakeStreams {
  private readonly streams = new Set<WakeStream>();
  private running = false;
  private pending = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    private readonly notifier: ChangeNotifier,
  ) {
    notifier.onChange(() => this.schedule());
  }

  static endsAt(now: number): number {
    return now + Math.round(WAKE_MS * (0.8 + Math.random() * 0.4));
  }

  get size(): number {
    return this.streams.size;
  }

  /** A stream told everything up to `position`; `seen` is the notifier's version before that read. */
  add(stream: WakeStream, seen: number): void {
    if (this.notifier.closed) return void stream.res.end();
    const key = sessionKey(stream.actor);
    const same = [...this.streams].filter((s) => sessionKey(s.actor) === key);
    for (const old of same.slice(0, Math.max(0, same.length - WAKE_STREAMS_PER_SESSION + 1))) this.end(old);
    this.streams.add(stream);
    stream.res.once("close", () => this.drop(stream));
    this.timer ??= setInterval(() => this.tick(), TICK_MS).unref();
    if (this.notifier.version !== seen) this.schedule();
  }

  private drop(stream: WakeStream): void {
    this.streams.delete(stream);
    if (!this.streams.size && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Ends a stream, telling it the position it was told about, to ask again from. */
  private end(stream: WakeStream): void {
    this.drop(stream);
    if (!stream.res.writableEnded) stream.res.end(`event: end\ndata: ${JSON.stringify({ position: String(stream.position) })}\n\n`);
  }

  private tick(): void {
    const now = Date.now();
    for (const s of this.streams) {
      if (now >= s.endsAt) this.end(s);
      else if (now - s.lastWrite >= WAKE_KEEP_ALIVE_MS) {
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
      // The database went away mid-pass: every stream ends; its client asks again from its position.
      for (const s of [...this.streams]) this.end(s);
    } finally {
      this.running = false;
    }
  }

  private async pass(): Promise<void> {
    if (!this.streams.size) return;
    let oldest = Infinity;
    let from = Infinity;
    for (const s of this.streams) {
      oldest = Math.min(oldest, s.checked);
      from = Math.min(from, s.position);
    }
    const { head, scopeChange } = await headAndScopeChange(this.db, oldest);
    const rescoped = scopeChange !== null ? await this.recheck(scopeChange) : new Set<WakeStream>();
    const entries = await wakeEntries(this.db, from, head);
    const now = Date.now();
    for (const s of [...this.streams]) {
      s.checked = Math.max(s.checked, head);
      if (s.position >= head) continue;
      const shapes = rescoped.has(s) ? new Set(SHAPE_NAMES) : shapesFor(s, entries);
      s.position = head;
      if (!shapes.size) continue;
      s.res.write(wakeEvent([...shapes], head));
      s.lastWrite = now;
      if (s.res.writableLength > MAX_BUFFERED_BYTES) this.end(s);
    }
  }

  /** Reads again, once per actor, the scope of streams checked before `scopeChange`: those whose scope changed. */
  private async recheck(scopeChange: number): Promise<Set<WakeStream>> {
    const byActor = new Map<string, WakeStream[]>();
    for (const s of this.streams) {
      if (s.checked >= scopeChange) continue;
      const key = actorKey(s.actor);
      const group = byActor.get(key);
      if (group) group.push(s);
      else byActor.set(key, [s]);
    }
    const changed = new Set<WakeStream>();
    await Promise.all(
      [...byActor.values()].map(async (group) => {
        const readable = await readableOf(this.db, group[0]!.actor);
        for (const s of group) {
          if (!sameSet(s.readable.locations, readable.locations) || !sameSet(s.readable.accounts, readable.accounts)) changed.add(s);
          s.readable = readable;
        }
      }),
    );
    return changed;
  }
}
