/**
 * Shape followers: each named shape (sync/SPEC.md SH1) is read with the real Electric client and
 * written into its Dexie table, one transaction per answer (a snapshot page, SH9, or a batch of
 * changes), with the stream's offset and handle saved in the same transaction: screens show each
 * page as it lands, and a restart resumes where it stopped (mid-snapshot too) instead of
 * downloading everything again.
 *
 * Browsers open at most six HTTP/1.1 connections to one host, and every live shape holds one for
 * up to 20 s (SH6). So every shape is paused between catch-ups (through the client's
 * runtime-visibility hook, which keeps the stream's own state between rounds), and the device's one
 * wake stream (SH11, wake.ts) says which to catch up; only while that stream cannot be held do the
 * shapes that change under a person's eyes (things, inbox) stay live (engine.ts).
 */
import {
  FetchError,
  ShapeStream,
  isChangeMessage,
  isControlMessage,
  snakeCamelMapper,
  type Message,
  type Row,
  type RuntimeVisibilityState,
} from "@electric-sql/client";
import { getMeta, setMeta, type InventoryDb } from "../db/database.js";
import { thingNameKey, type SyncedTableName } from "../db/rows.js";
import { apiUrl } from "./api.js";
import { confirmTxids, retireApplied } from "./outbox.js";
import { updateStatus } from "./status.js";

interface Position {
  offset: string;
  handle: string;
}

const positionKey = (name: SyncedTableName) => `shape:${name}`;

/** Open (visible) or paused (hidden); combined with the page's own visibility. */
class Gate {
  private listeners = new Set<(s: RuntimeVisibilityState) => void>();
  constructor(private open: boolean) {}
  private state(): RuntimeVisibilityState {
    const pageHidden = typeof document !== "undefined" && document.hidden;
    return this.open && !pageHidden ? "visible" : "hidden";
  }
  set(open: boolean) {
    if (this.open === open) return;
    this.open = open;
    const s = this.state();
    for (const l of this.listeners) l(s);
  }
  adapter() {
    return {
      getCurrentState: () => this.state(),
      subscribe: (callback: (s: RuntimeVisibilityState) => void) => {
        this.listeners.add(callback);
        const onPage = () => callback(this.state());
        if (typeof document !== "undefined") document.addEventListener("visibilitychange", onPage);
        return () => {
          this.listeners.delete(callback);
          if (typeof document !== "undefined") document.removeEventListener("visibilitychange", onPage);
        };
      },
    };
  }
}

export class ShapeFollower {
  private stream: ShapeStream<Row> | undefined;
  private readonly gate: Gate;
  private waiting: (() => void)[] = [];
  private rows = 0;
  /** Rows written or removed so far: a catch-up that moved it brought something. */
  changes = 0;

  constructor(
    private readonly db: InventoryDb,
    readonly name: SyncedTableName,
    /** Stays live; otherwise paused between catch-ups. */
    private live: boolean,
    private readonly onError: (err: Error) => void,
  ) {
    this.gate = new Gate(true);
  }

  get isLive(): boolean {
    return this.live;
  }

  /** Live (the wake stream is lost) or paused between catch-ups; a catch-up under way still ends at up-to-date. */
  setLive(live: boolean): void {
    if (this.live === live) return;
    this.live = live;
    if (live) this.gate.set(true);
    else if (!this.waiting.length) this.gate.set(false);
  }

  async start(signal: AbortSignal): Promise<void> {
    const saved = await getMeta<Position>(this.db, positionKey(this.name));
    this.rows = (await updateProgressRows(this.db, this.name)) ?? 0;
    this.stream = new ShapeStream<Row>({
      url: apiUrl(`/api/v1/sync/shape/${this.name}`),
      ...(saved ? { offset: saved.offset as `${number}_${number}`, handle: saved.handle } : {}),
      columnMapper: snakeCamelMapper(),
      signal,
      runtimeVisibility: this.gate.adapter(),
      // Retry network errors quickly after a reconnect: the default grows to 32 s.
      backoffOptions: { initialDelay: 500, maxDelay: 8_000, multiplier: 2 },
      warnOnHttp: false,
      onError: (err) => {
        this.onError(err);
        // 4xx other than 429 (signed out, shape gone) stop this round; the engine restarts us.
        if (err instanceof FetchError && err.status >= 400 && err.status < 500 && err.status !== 429) return;
        return {};
      },
    });
    this.stream.subscribe(
      (messages) => this.apply(messages),
      (err) => this.onError(err),
    );
  }

  /**
   * Resolves when the shape has caught up with the server's present (then pauses a cold shape),
   * or after `timeoutMs` (offline, or a long first sync still coming). On that timeout a cold shape
   * pauses again unless rows arrived meanwhile: a first sync of a large location keeps going until
   * it is up to date (apply() pauses it then), rather than stopping mid-snapshot until the next wake.
   */
  catchUp(timeoutMs = 25_000): Promise<void> {
    const before = this.changes;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w !== done);
        if (!this.live && this.changes === before) this.gate.set(false);
        resolve();
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiting.push(done);
      this.gate.set(true);
    });
  }

  private async apply(messages: Message<Row>[]): Promise<void> {
    const table = this.db.table(this.name);
    const { puts, deletes, txids, reset, upToDate } = foldMessages(messages);
    // The things list reads by name through an index on this device-only key (client/db/database.ts).
    if (this.name === "things") for (const r of puts) r.nameKey = thingNameKey(r.name as string | null);
    const stream = this.stream;
    await this.db.transaction("rw", table, this.db.meta, async () => {
      if (reset) {
        await table.clear();
        await this.db.meta.delete(positionKey(this.name));
        this.rows = 0;
      }
      if (puts.length) await table.bulkPut(puts);
      if (deletes.length) await table.bulkDelete(deletes);
      if (stream?.shapeHandle && stream.lastOffset !== "-1") {
        await setMeta(this.db, positionKey(this.name), { offset: stream.lastOffset, handle: stream.shapeHandle } satisfies Position);
      }
    });
    this.rows += puts.length;
    this.changes += puts.length + deletes.length + (reset ? 1 : 0);
    await confirmTxids(this.db, txids);
    if (upToDate) {
      await retireApplied(this.db, this.name, Date.now());
      const now = new Date().toISOString();
      await updateStatus(this.db, (s) => ({ ...s, lastPullAt: now, shapes: { ...s.shapes, [this.name]: { upToDate: true, rows: this.rows } } }));
      for (const resolve of this.waiting.splice(0)) resolve();
      if (!this.live) this.gate.set(false);
    } else if (puts.length) {
      await updateStatus(this.db, (s) => ({
        ...s,
        shapes: { ...s.shapes, [this.name]: { upToDate: s.shapes[this.name]?.upToDate ?? false, rows: this.rows } },
      }));
    }
  }
}

async function updateProgressRows(db: InventoryDb, name: SyncedTableName): Promise<number | undefined> {
  return db.table(name).count();
}

/**
 * A batch of shape messages as the writes that leave the table as the last message of each row
 * says: a row deleted and then sent again in the same batch (a thing that moved from one location
 * the device reads to another it reads: a delete under the old, then the row under the new) is
 * kept, and a row sent and then deleted is gone. A must-refetch drops what came before it.
 */
export function foldMessages(messages: Message<Row>[]): { puts: Row[]; deletes: string[]; txids: string[]; reset: boolean; upToDate: boolean } {
  const last = new Map<string, Row | null>();
  const txids: string[] = [];
  let reset = false;
  let upToDate = false;
  for (const m of messages) {
    if (isChangeMessage(m)) {
      const id = m.value.id as string;
      // Map order is first insertion: delete and re-insert so the order of the writes is the last one's.
      last.delete(id);
      last.set(id, m.headers.operation === "delete" ? null : m.value);
      for (const t of m.headers.txids ?? []) txids.push(String(t));
    } else if (isControlMessage(m)) {
      if (m.headers.control === "must-refetch") {
        // The shape's scope changed (SH4/SH7): what we hold may include rows we may no longer see.
        reset = true;
        last.clear();
      } else if (m.headers.control === "up-to-date") upToDate = true;
    }
  }
  const puts: Row[] = [];
  const deletes: string[] = [];
  for (const [id, row] of last) {
    if (row) puts.push(row);
    else deletes.push(id);
  }
  return { puts, deletes, txids, reset, upToDate };
}
