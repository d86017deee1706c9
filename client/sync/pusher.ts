/**
 * The pusher: sends the outbox in order, a batch at a time (sync/SPEC.md PU1-PU4), uploads the
 * photos a batch needs first, and retries with jittered backoff that honours Retry-After. Only the
 * tab holding the sync lock runs it (leader.ts); the service worker's background sync uses
 * `pushOnce` under the same lock.
 */
import { PROTOCOL, type PushResponse } from "../../sync/protocol.js";
import type { InventoryDb } from "../db/database.js";
import { ApiError, api } from "./api.js";
import { backoffDelay, parseRetryAfter } from "./backoff.js";
import { uploadBlobsFor, withoutFailedPhotos } from "./blob-upload.js";
import { nextBatch, onOutboxChanged, recordVerdicts, rejectEntry } from "./outbox.js";
import { shapesOf } from "../ops/index.js";
import { updateStatus } from "./status.js";
import type { SyncedTableName } from "../db/rows.js";

export const BATCH_SIZE = 100;

export type PushOutcome =
  | { kind: "idle" }
  | { kind: "pushed"; applied: number; dropped: number; shapes: SyncedTableName[] }
  | { kind: "retry"; retryAfterMs?: number; offline: boolean; message: string }
  | { kind: "smaller" }
  | { kind: "blocked"; why: "signed_out" | "mfa_required" | "too_old"; message: string };

/** A batch answered 500 this many times in a row is halved; one op alone, SET_ASIDE_AFTER times, is set aside (PU8). */
export const HALVE_AFTER = 2;
export const SET_ASIDE_AFTER = 3;

/**
 * The pusher's pace between pushes: the batch size (shrinks after 413, 400 and repeated 500s to
 * isolate an op the server cannot take, grows back after a success) and the 500s in a row for
 * the batch that starts at `head`.
 */
export interface PushPace {
  value: number;
  failures?: number;
  head?: number | undefined;
}

/** One push of the oldest batch. */
export async function pushOnce(db: InventoryDb, clientId: string, size: PushPace): Promise<PushOutcome> {
  const batch = await nextBatch(db, size.value);
  if (!batch.length) return { kind: "idle" };
  if (size.head !== batch[0]!.seq) {
    size.head = batch[0]!.seq;
    size.failures = 0;
  }
  try {
    await uploadBlobsFor(db, batch);
    const ops = await Promise.all(batch.map((e) => withoutFailedPhotos(db, e)));
    const answer = await api<PushResponse>("POST", "/api/v1/sync/push", { clientId, protocol: PROTOCOL, ops });
    const counts = await recordVerdicts(db, batch, answer.results);
    size.value = Math.min(BATCH_SIZE, size.value * 2);
    size.failures = 0;
    return { kind: "pushed", ...counts, shapes: [...new Set(batch.flatMap((e) => shapesOf(e.op)))] };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    if (err.offline) return { kind: "retry", offline: true, message: err.message };
    if (err.status === 401) return { kind: "blocked", why: "signed_out", message: err.message };
    if (err.code === "mfa_required") return { kind: "blocked", why: "mfa_required", message: err.message };
    if (err.status === 426) return { kind: "blocked", why: "too_old", message: err.message };
    if (err.status === 413 || err.status === 400) {
      // Too big, or an op the server cannot read: halve until the culprit is alone, then set it aside.
      if (batch.length > 1) {
        size.value = Math.max(1, Math.floor(batch.length / 2));
        return { kind: "smaller" };
      }
      await rejectEntry(db, batch[0]!.seq!, err.message);
      return { kind: "smaller" };
    }
    if (err.status === 500) {
      // The server failed on this batch itself, not on load: one op may be what it cannot take.
      // Halve after a repeat, and set an op aside once it fails alone, so the rest still go (PU8).
      size.failures = (size.failures ?? 0) + 1;
      if (batch.length > 1 && size.failures >= HALVE_AFTER) {
        size.value = Math.max(1, Math.floor(batch.length / 2));
        size.failures = 0;
        return { kind: "smaller" };
      }
      if (batch.length === 1 && size.failures >= SET_ASIDE_AFTER) {
        await rejectEntry(db, batch[0]!.seq!, err.message);
        size.failures = 0;
        return { kind: "smaller" };
      }
    }
    const retryAfterMs = parseRetryAfter(err.retryAfter);
    return { kind: "retry", ...(retryAfterMs !== undefined ? { retryAfterMs } : {}), offline: false, message: err.message };
  }
}

export class Pusher {
  private stopped = false;
  private wake: (() => void) | undefined;
  private readonly size: PushPace = { value: BATCH_SIZE };

  constructor(
    private readonly db: InventoryDb,
    private readonly clientId: string,
    private readonly hooks: {
      pushed?: (shapes: SyncedTableName[]) => void;
      offline?: () => void;
      blocked?: (why: "signed_out" | "mfa_required" | "too_old") => void;
    } = {},
  ) {}

  /** Runs until stop(): pushes while there is something to push, sleeps otherwise. */
  async run(): Promise<void> {
    const unlisten = onOutboxChanged(() => this.kick());
    const online = () => {
      attempt = 0;
      this.kick();
    };
    globalThis.addEventListener("online", online);
    let attempt = 0;
    try {
      while (!this.stopped) {
        const outcome = await pushOnce(this.db, this.clientId, this.size);
        if (outcome.kind === "pushed") {
          attempt = 0;
          await updateStatus(this.db, (s) => ({ ...s, lastPushAt: new Date().toISOString(), error: null, blocked: null }));
          this.hooks.pushed?.(outcome.shapes);
        } else if (outcome.kind === "idle") {
          attempt = 0;
          await this.sleep(30_000);
        } else if (outcome.kind === "retry") {
          await updateStatus(this.db, (s) => ({ ...s, error: outcome.offline ? s.error : { message: outcome.message, at: new Date().toISOString() } }));
          if (outcome.offline) this.hooks.offline?.();
          await this.sleep(backoffDelay(attempt++, outcome.retryAfterMs));
        } else if (outcome.kind === "blocked") {
          await updateStatus(this.db, (s) => ({ ...s, blocked: outcome.why, error: { message: outcome.message, at: new Date().toISOString() } }));
          this.hooks.blocked?.(outcome.why);
          await this.sleep(Number.POSITIVE_INFINITY);
        }
      }
    } finally {
      unlisten();
      globalThis.removeEventListener("online", online);
    }
  }

  /** Something new to push, the network is back, or the person signed in again. */
  kick(): void {
    this.wake?.();
  }

  stop(): void {
    this.stopped = true;
    this.kick();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(() => done(), ms) : undefined;
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      this.wake = done;
    });
  }
}
