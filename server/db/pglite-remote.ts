/**
 * The main thread's handle on the embedded database, which runs on its own thread
 * (pglite-worker.ts) so the event loop stays free while PostgreSQL works. It offers the part of
 * PGlite's interface that drizzle's PGlite driver and our code use: query, exec, transaction,
 * listen, close.
 *
 * PGlite is one session: a transaction has it to itself until it ends. So does everything here,
 * through one FIFO lock, exactly as PGlite orders its own callers in-process.
 */
import { Worker } from "node:worker_threads";
import type { Results } from "@electric-sql/pglite";
import type { WorkerReply, WorkerRequest, WorkerStart } from "./pglite-protocol.js";

type Request = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, "id"> : never) : never;
interface QueryOptions {
  rowMode?: "array" | "object";
  /** Only which types have a parser is sent: drizzle's parsers all keep the text as sent. */
  parsers?: Record<number, unknown>;
}

/** An error from the database thread, with the fields a PostgreSQL error has (code, constraint...). */
export class EmbeddedDatabaseError extends Error {
  constructor(fields: Record<string, unknown>) {
    super(typeof fields.message === "string" ? fields.message : "embedded database error");
    Object.assign(this, fields);
    this.name = "EmbeddedDatabaseError";
  }
}

export interface RemoteTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/**
 * The database thread: the built worker file, or when running from source (tests, `npm run dev`)
 * the TypeScript one, loaded through tsx's loader registered inside that thread.
 */
function startWorker(start: WorkerStart): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./pglite-worker.js", import.meta.url), { workerData: start });
  const source = new URL("./pglite-worker.ts", import.meta.url).href;
  const boot = 'import("tsx/esm/api").then((m) => { m.register(); return import(' + JSON.stringify(source) + "); })";
  return new Worker(boot, { eval: true, workerData: start });
}

export class RemotePGlite {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  private lock: Promise<void> = Promise.resolve();
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on("message", (msg: WorkerReply) => {
      if (msg.kind === "notify") this.listeners.get(msg.listenId)?.(msg.payload);
      else if (msg.kind === "result" || msg.kind === "error") {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.kind === "result") p?.resolve(msg.value);
        else p?.reject(new EmbeddedDatabaseError(msg.error));
      }
    });
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`the embedded database thread stopped (exit code ${code})`)));
  }

  /** Starts the database thread and waits until PGlite is open (migrations are the caller's). */
  static async open(start: WorkerStart): Promise<RemotePGlite> {
    const worker = startWorker(start);
    await new Promise<void>((resolve, reject) => {
      const onMessage = (msg: WorkerReply) => {
        if (msg.kind === "ready") resolve();
        else if (msg.kind === "failed") reject(new EmbeddedDatabaseError(msg.error));
        else return;
        worker.off("message", onMessage);
      };
      worker.on("message", onMessage);
      worker.once("error", reject);
    });
    return new RemotePGlite(worker);
  }

  private call<T>(req: Request): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...req, id });
    });
  }

  /** Runs `fn` with the session to itself; later callers wait their turn, in order. */
  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const before = this.lock;
    let release!: () => void;
    this.lock = new Promise<void>((r) => (release = r));
    await before;
    try {
      return await fn();
    } finally {
      release();
    }
  }

  private send<T>(sql: string, params: unknown[] = [], options: QueryOptions = {}): Promise<Results<T>> {
    return this.call<Results<T>>({
      kind: "query",
      sql,
      params,
      rowMode: options.rowMode ?? "object",
      rawTypes: Object.keys(options.parsers ?? {}).map(Number),
    });
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.exclusive(() => this.send<T>(sql, params, options));
  }

  exec(sql: string): Promise<Results[]> {
    return this.exclusive(() => this.call<Results[]>({ kind: "exec", sql }));
  }

  /**
   * BEGIN, `fn`, COMMIT (ROLLBACK when it throws). Statements `fn` sends without waiting still
   * run in the order sent: the database thread takes one message at a time.
   */
  transaction<T>(fn: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      await this.send("BEGIN");
      let closed = false;
      const tx: RemoteTransaction = {
        query: (sql, params, options) => this.send(sql, params, options),
        exec: (sql) => this.call<Results[]>({ kind: "exec", sql }),
        rollback: async () => {
          await this.send("ROLLBACK");
          closed = true;
        },
        get closed() {
          return closed;
        },
      };
      try {
        const result = await fn(tx);
        if (!closed) await this.send("COMMIT");
        closed = true;
        return result;
      } catch (err) {
        if (!closed) await this.send("ROLLBACK").catch(() => undefined);
        closed = true;
        throw err;
      }
    });
  }

  /** LISTEN on the database thread; notifications come back as messages. Returns the unsubscribe. */
  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    const listenId = this.nextId++;
    this.listeners.set(listenId, onPayload);
    // Through the lock: a LISTEN sent inside someone's transaction would share its fate.
    await this.exclusive(() => this.call({ kind: "listen", listenId, channel }));
    return async () => {
      this.listeners.delete(listenId);
      await this.exclusive(() => this.call({ kind: "unlisten", listenId }));
    };
  }

  /** Closes PGlite (flushing its files) and stops the thread. */
  async close(): Promise<void> {
    if (this.failure) return;
    await this.exclusive(() => this.call({ kind: "close" }));
    this.failure = new Error("the embedded database is closed");
    await this.worker.terminate();
  }
}
