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
import { SHAPE_NAMES, type ShapeName } from "../../../sync/shapes.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { readableAccounts, readableLocations } from "../../access/readable.js";
import { HeldStreams, type HeldStream } from "../held-streams.js";
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

export interface WakeStream extends HeldStream {
  actor: Actor;
  readable: Readable;
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

export class WakeStreams extends HeldStreams<WakeStream> {
  constructor(db: Db, notifier: ChangeNotifier) {
    super(db, notifier, { holdMs: WAKE_MS, spread: 0.2, tickMs: TICK_MS, keepAliveMs: WAKE_KEEP_ALIVE_MS, maxBufferedBytes: MAX_BUFFERED_BYTES });
  }

  /** A stream told everything up to its position: a session's oldest stream ends past the limit. */
  override add(stream: WakeStream, seen: number): void {
    const key = sessionKey(stream.actor);
    const same = [...this.streams].filter((s) => sessionKey(s.actor) === key);
    for (const old of same.slice(0, Math.max(0, same.length - WAKE_STREAMS_PER_SESSION + 1))) this.end(old);
    super.add(stream, seen);
  }

  /** An ending stream is told the position it was told about, to ask again from. */
  protected override farewell(stream: WakeStream): string {
    return `event: end\ndata: ${JSON.stringify({ position: String(stream.position) })}\n\n`;
  }

  protected async pass(): Promise<void> {
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
      this.send(s, wakeEvent([...shapes], head), now);
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
