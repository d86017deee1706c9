/**
 * The open `live_sse` streams of this process (sync/SPEC.md SH6). On each commit, the streams of
 * one shape with the same content key (scope.ts: readable locations, where money is hidden, the
 * user where rows depend on who reads) and the same log position share ONE log read and ONE
 * serialized chunk, written to each of them: 200 devices of a location cost one read, not 200.
 *
 * Nobody gets a row its own scope does not allow:
 * - the shared read runs as one member of the group, in one snapshot with a check that this
 *   member's handle is still the one its stream was opened with (else its stream ends);
 * - it reads the log only up to the head read at the start of the pass, and before reading, every
 *   stream whose scope may have changed since it was checked (an entry of memberships or locations,
 *   whose rows decide scopes, SH4) is checked again, once per actor and handle: a stream whose handle
 *   changed ends at once, and its next request answers 409 must-refetch (SH7);
 * - a stream lasts about SSE_MS (at most 1.25 SSE_MS + TICK_MS, 30 s); the client then asks again,
 *   authenticated as any request is, so a revoked or expired session stops receiving within that
 *   (plus the session cache's few seconds, server/auth/session-cache.ts), as a long-poll did.
 */
import { type Actor, withActor } from "../../db/actor.js";
import type { Db } from "../../db/client.js";
import { HeldStreams, type HeldStream } from "../held-streams.js";
import type { ShapeDef } from "./definitions.js";
import type { ChangeNotifier } from "./notifier.js";
import { headAndScopeChange, readLog, useTextForms } from "./query.js";
import { isHandleOf, shapeScope } from "./scope.js";

/**
 * How long one stream stays open (give or take a quarter, so that streams opened together do not
 * all come back together, plus up to TICK_MS); the client then asks again from its offset,
 * authenticated as any request is. As long as a long-poll is held (SH6).
 */
export const SSE_MS = 20_000;
export const KEEP_ALIVE_MS = 21_000;
const TICK_MS = 5_000;
/** A stream whose client stopped reading while this much waits to be written is ended. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** Electric's up-to-date control message, with the log position reached. */
export const upToDate = (lsn: number) => JSON.stringify({ headers: { control: "up-to-date", global_last_seen_lsn: String(lsn) } });

/** One SSE event per message, then an up-to-date: how the Electric client reads a batch. */
export const sseChunk = (messages: readonly string[], last: number) => `${messages.map((m) => `data: ${m}\n\n`).join("")}data: ${upToDate(last)}\n\n`;

export interface LiveStream extends HeldStream {
  actor: Actor;
  shape: ShapeDef;
  /** The handle the stream was opened with (SH4). */
  handle: string;
  contentKey: string;
}

export class LiveStreams extends HeldStreams<LiveStream> {
  constructor(db: Db, notifier: ChangeNotifier) {
    super(db, notifier, { holdMs: SSE_MS, spread: 0.25, tickMs: TICK_MS, keepAliveMs: KEEP_ALIVE_MS, maxBufferedBytes: MAX_BUFFERED_BYTES });
  }

  protected async pass(): Promise<void> {
    if (!this.streams.size) return;
    let oldest = Infinity;
    for (const s of this.streams) oldest = Math.min(oldest, s.checked);
    const { head, scopeChange } = await headAndScopeChange(this.db, oldest);
    if (scopeChange !== null) await this.recheck(scopeChange);
    const groups = new Map<string, LiveStream[]>();
    for (const s of this.streams) {
      s.checked = Math.max(s.checked, head);
      if (s.position >= head) continue;
      const key = `${s.contentKey}@${s.position}`;
      const group = groups.get(key);
      if (group) group.push(s);
      else groups.set(key, [s]);
    }
    await Promise.all([...groups.values()].map((g) => this.deliver(g, head)));
  }

  /** Checks again, once per actor, shape and handle, the streams checked before `scopeChange`. */
  private async recheck(scopeChange: number): Promise<void> {
    const byActor = new Map<string, LiveStream[]>();
    for (const s of this.streams) {
      if (s.checked >= scopeChange) continue;
      const key = [s.shape.name, s.actor.userId, s.actor.mfaProven, s.actor.locationScope?.join(",") ?? "*", s.handle].join("|");
      const group = byActor.get(key);
      if (group) group.push(s);
      else byActor.set(key, [s]);
    }
    await Promise.all(
      [...byActor.values()].map(async (group) => {
        const { actor, shape, handle } = group[0]!;
        const scope = await withActor(this.db, actor, (tx) => shapeScope(tx, actor, shape));
        if (!isHandleOf(scope, handle)) for (const s of group) this.end(s);
      }),
    );
  }

  /** One read for streams of the same content at the same position, one chunk written to each. */
  private async deliver(group: LiveStream[], head: number): Promise<void> {
    let members = group;
    let position = group[0]!.position;
    while (members.length) {
      const reader = members[0]!;
      const read = await withActor(
        this.db,
        reader.actor,
        async (tx) => {
          await useTextForms(tx);
          const scope = await shapeScope(tx, reader.actor, reader.shape);
          if (!isHandleOf(scope, reader.handle)) return null;
          return readLog(tx, reader.shape, position, scope.moneyHidden, head);
        },
        { snapshot: true },
      );
      if (!read) {
        // The reader's scope changed: its stream ends (its next request gets 409); another member reads.
        this.end(reader);
        members = members.filter((s) => this.streams.has(s));
        continue;
      }
      members = members.filter((s) => this.streams.has(s));
      // Compaction went past this position (sync/SPEC.md SH10): the streams end, and their next
      // request is told to refetch.
      if (position < read.horizon) {
        for (const s of members) this.end(s);
        return;
      }
      if (read.messages.length) {
        const chunk = sseChunk(read.messages, read.last);
        const now = Date.now();
        for (const s of members) this.send(s, chunk, now);
      }
      for (const s of members) s.position = read.last;
      if (!read.more) return;
      position = read.last;
    }
  }
}
