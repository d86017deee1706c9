/**
 * Starts and stops a user's sync in this tab: waits to be the syncing tab (leader.ts), then runs
 * the shape followers, the wake stream and the pusher until sign-out or the page closes. The other
 * tabs only read Dexie, which tells them about every change the syncing tab writes.
 *
 * Every shape is paused between catch-ups; the one wake stream (sync/SPEC.md SH11, wake.ts) says
 * which to catch up, so a change on another device shows here within about a second on every
 * screen, over one long connection. While that stream cannot be held, the shapes that change under
 * a person's eyes stay live and the others catch up every minute, as before the wake stream.
 */
import type { InventoryDb } from "../db/database.js";
import { clientId } from "../db/device.js";
import { askPersistOnce } from "../db/persist.js";
import { SYNCED_TABLES, type SyncedTableName } from "../db/rows.js";
import { FetchError } from "@electric-sql/client";
import { whileLeader } from "./leader.js";
import { CONFIRM_SLACK_MS } from "./outbox.js";
import { Pusher } from "./pusher.js";
import { ShapeFollower } from "./shapes.js";
import { updateStatus } from "./status.js";
import { holdWakeStream } from "./wake.js";
import { WAKE_CONCURRENCY, WakePool } from "./wake-pool.js";

/** Without the wake stream, shapes that change under a person's eyes stay live; the others catch up now and then. */
const LIVE_WITHOUT_WAKE: ReadonlySet<SyncedTableName> = new Set(["things", "inbox"]);
const CATCH_UP_EVERY_MS = 60_000;

export class SyncEngine {
  private controller: AbortController | undefined;
  private pusher: Pusher | undefined;
  private followers: ShapeFollower[] = [];
  /** Whether the wake stream is held: then no shape is live and no periodic catch-up runs. */
  private wakeHeld = false;

  constructor(
    readonly userId: string,
    private readonly db: InventoryDb,
    private readonly hooks: { signedOut?: () => void; mfaRequired?: () => void; offline?: () => void } = {},
  ) {}

  start(): void {
    if (this.controller) return;
    const controller = (this.controller = new AbortController());
    void whileLeader(this.userId, controller.signal, (signal) => this.run(signal)).catch((err: unknown) => {
      void updateStatus(this.db, (s) => ({ ...s, error: { message: err instanceof Error ? err.message : String(err), at: new Date().toISOString() } }));
    });
  }

  stop(): void {
    this.controller?.abort();
    this.pusher?.stop();
    this.controller = undefined;
    this.pusher = undefined;
    this.followers = [];
    this.wakeHeld = false;
  }

  /** After signing in again: start over with fresh streams and a fresh pusher. */
  restart(): void {
    this.stop();
    this.start();
  }

  /** Push now (the person pressed "sync now", or came back online). */
  kick(): void {
    this.pusher?.kick();
    void this.catchUp();
  }

  private async run(signal: AbortSignal): Promise<void> {
    await updateStatus(this.db, (s) => ({ ...s, blocked: null }));
    const onError = (err: Error) => {
      if (err instanceof FetchError && err.status === 401) this.blocked("signed_out");
      else if (err instanceof FetchError && err.status === 403 && err.text?.includes("mfa_required")) this.blocked("mfa_required");
    };
    // Paused between catch-ups from the start: the wake stream opening (or failing) decides.
    this.followers = SYNCED_TABLES.map((name) => new ShapeFollower(this.db, name, false, onError));
    await Promise.all(this.followers.map((f) => f.start(signal)));
    // Opened once the first round is in, so it does not take one of the browser's six connections
    // from a first sync; its first opening catches every shape up once, for the gap.
    void this.firstRound().then(() => {
      if (signal.aborted) return;
      // The device now holds the person's data: ask the browser to keep it (once, remembered).
      void askPersistOnce();
      this.holdWake(signal);
    });
    const pusher = (this.pusher = new Pusher(this.db, await clientId(), {
      pushed: (shapes) => {
        void this.catchUp(new Set(shapes));
        // An applied op waits for its txid on a shape. If that catch-up missed it, the entry only
        // retires after a catch-up that ends CONFIRM_SLACK_MS after it was applied: ask once more
        // then, rather than leave it waiting for the next minute's round.
        const again = setTimeout(() => void this.catchUpUnconfirmed(new Set(shapes)), CONFIRM_SLACK_MS + 500);
        signal.addEventListener("abort", () => clearTimeout(again));
      },
      offline: () => this.hooks.offline?.(),
      blocked: (why) => (why === "too_old" ? undefined : this.blocked(why)),
    }));
    const timer = setInterval(() => void (this.wakeHeld ? undefined : this.catchUp()), CATCH_UP_EVERY_MS);
    const online = () => void this.catchUp();
    globalThis.addEventListener("online", online);
    signal.addEventListener("abort", () => pusher.stop());
    try {
      await pusher.run();
    } finally {
      clearInterval(timer);
      globalThis.removeEventListener("online", online);
    }
  }

  /**
   * Every shape's first read of this run: what a person looks at first (things, the inbox) before
   * the rest, and a few at a time, so that a thumbnail, a screen's own request or a push still finds
   * one of the browser's six connections instead of queueing behind nineteen shape requests.
   */
  private async firstRound(): Promise<void> {
    const ordered = [...this.followers].sort((a, b) => Number(LIVE_WITHOUT_WAKE.has(b.name)) - Number(LIVE_WITHOUT_WAKE.has(a.name)));
    const next = async (): Promise<void> => {
      for (let f = ordered.shift(); f; f = ordered.shift()) await f.catchUp();
    };
    await Promise.all(Array.from({ length: WAKE_CONCURRENCY }, next));
  }

  /**
   * Holds the wake stream: woken shapes catch up a few at a time. Each time it opens (the first
   * time too: the shapes' first reads raced it), every shape catches up once, for what changed
   * while no one listened, and the live shapes pause; when it is lost, they go live again and the
   * minute's catch-ups resume until it opens again.
   */
  private holdWake(signal: AbortSignal): void {
    const pool = new WakePool((name) => this.followers.find((f) => f.name === name), signal);
    let mode: "starting" | "held" | "fallback" = "starting";
    void holdWakeStream(signal, {
      connected: ({ proxy }) => {
        pool.retryEmpty = proxy;
        if (mode === "held") return;
        mode = "held";
        this.wakeHeld = true;
        for (const f of this.followers) f.setLive(false);
        pool.sweep(this.followers.map((f) => f.name));
      },
      // Every shape at once is a scope change or a gap, not a change of each: asked once, as a sweep.
      wake: (shapes) => (shapes.length >= this.followers.length ? pool.sweep(shapes) : pool.wake(shapes)),
      lost: (status) => {
        if (mode === "fallback") return;
        mode = "fallback";
        this.wakeHeld = false;
        for (const f of this.followers) if (LIVE_WITHOUT_WAKE.has(f.name)) f.setLive(true);
        // Signed out or a second factor needed: the shapes' own requests say so (and stop).
        if (status !== 401 && status !== 403) void this.catchUp();
      },
    });
  }

  private blocked(why: "signed_out" | "mfa_required"): void {
    void updateStatus(this.db, (s) => ({ ...s, blocked: why }));
    if (why === "signed_out") this.hooks.signedOut?.();
    else this.hooks.mfaRequired?.();
  }

  private catchUps: Promise<void> = Promise.resolve();

  /** Catches up `shapes` again if an op the server applied still waits for its txid. */
  private async catchUpUnconfirmed(shapes: ReadonlySet<SyncedTableName>): Promise<void> {
    if (await this.db.outbox.filter((e) => e.state === "applied").count()) await this.catchUp(shapes);
  }

  /**
   * Brings paused shapes up to date (all of them, or those a push just wrote to), one at a time:
   * with the two live shapes that keeps at most three long requests open, well under the six
   * connections a browser gives one host, so pushes and page requests never queue behind them.
   */
  private catchUp(only?: ReadonlySet<SyncedTableName>): Promise<void> {
    const cold = this.followers.filter((f) => !f.isLive && (!only || only.has(f.name)));
    if (!cold.length) return this.catchUps;
    this.catchUps = this.catchUps.then(async () => {
      for (const f of cold) await f.catchUp();
    });
    return this.catchUps;
  }
}
