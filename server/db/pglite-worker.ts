/**
 * The embedded database's own thread. PGlite is PostgreSQL compiled to WASM: every query runs
 * synchronously on the thread that owns it, so on the main thread a 1000-op push stalled every
 * other request for hundreds of ms. Here it runs on a worker thread; pglite-remote.ts is the main
 * thread's side. Messages are handled strictly in arrival order (a transaction's statements arrive
 * in order and must run in order).
 */
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type QueryOptions } from "@electric-sql/pglite";
import type { WorkerReply, WorkerRequest, WorkerStart } from "./pglite-protocol.js";

const start = workerData as WorkerStart;
const port = parentPort!;

async function open(): Promise<PGlite> {
  if (start.loadDataDir) return PGlite.create({ loadDataDir: new Blob([readFileSync(start.loadDataDir)]) });
  return start.dataDir ? PGlite.create(start.dataDir) : PGlite.create();
}

const identity = (value: unknown) => value;
const listeners = new Map<number, () => Promise<void>>();

/** A database error's fields, so the main thread's error has the same `code`, `constraint`... */
function errorFields(err: unknown): Record<string, unknown> {
  const e = err as Record<string, unknown>;
  const out: Record<string, unknown> = { message: err instanceof Error ? err.message : String(err) };
  for (const k of ["code", "detail", "hint", "position", "schema", "table", "column", "dataType", "constraint", "severity", "where", "routine"])
    if (typeof e?.[k] === "string") out[k] = e[k];
  return out;
}

async function handle(db: PGlite, req: WorkerRequest): Promise<unknown> {
  switch (req.kind) {
    case "query": {
      const options: QueryOptions = { rowMode: req.rowMode };
      // drizzle keeps these types as the text PostgreSQL sent; functions cannot cross threads, so
      // the main thread sends which type ids to keep as text.
      if (req.rawTypes.length) options.parsers = Object.fromEntries(req.rawTypes.map((oid) => [oid, identity]));
      const r = await db.query(req.sql, req.params, options);
      return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows };
    }
    case "exec":
      return (await db.exec(req.sql)).map((r) => ({ rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }));
    case "listen": {
      const unsubscribe = await db.listen(req.channel, (payload) =>
        port.postMessage({ kind: "notify", listenId: req.listenId, payload } satisfies WorkerReply),
      );
      listeners.set(req.listenId, unsubscribe);
      return null;
    }
    case "unlisten":
      await listeners.get(req.listenId)?.();
      listeners.delete(req.listenId);
      return null;
    case "close":
      await db.close();
      return null;
  }
}

const ready = open();
let queue: Promise<unknown> = ready;

port.on("message", (req: WorkerRequest) => {
  queue = queue.then(async () => {
    const db = await ready;
    try {
      port.postMessage({ kind: "result", id: req.id, value: await handle(db, req) } satisfies WorkerReply);
    } catch (err) {
      port.postMessage({ kind: "error", id: req.id, error: errorFields(err) } satisfies WorkerReply);
    }
  });
});

ready.then(
  () => port.postMessage({ kind: "ready" } satisfies WorkerReply),
  (err: unknown) => port.postMessage({ kind: "failed", error: errorFields(err) } satisfies WorkerReply),
);
