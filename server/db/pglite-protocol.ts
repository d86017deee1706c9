/** Messages between the main thread (pglite-remote.ts) and the embedded database's thread (pglite-worker.ts). */

/** How the worker opens PGlite: a data directory, a dump to load (tests), or in memory. */
export interface WorkerStart {
  dataDir?: string;
  loadDataDir?: string;
}

export type WorkerRequest =
  | { kind: "query"; id: number; sql: string; params: unknown[]; rowMode: "array" | "object"; rawTypes: number[] }
  | { kind: "exec"; id: number; sql: string }
  | { kind: "listen"; id: number; listenId: number; channel: string }
  | { kind: "unlisten"; id: number; listenId: number }
  | { kind: "close"; id: number };

export type WorkerReply =
  | { kind: "ready" }
  | { kind: "failed"; error: Record<string, unknown> }
  | { kind: "result"; id: number; value: unknown }
  | { kind: "error"; id: number; error: Record<string, unknown> }
  | { kind: "notify"; listenId: number; payload: string };
