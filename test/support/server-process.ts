/**
 * The real server (server/main.ts, run from source) as its own process, for tests that kill it,
 * restart it or take its database away: on an embedded PGlite in `dataDir`, or on PostgreSQL at
 * `databaseUrl`. A restart reuses the port, so the origin (and every session cookie) stays valid.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";

export interface ServerProcessOptions {
  /** SVC_DATA_DIR: the embedded database lives in `<dataDir>/pg` when there is no databaseUrl. */
  dataDir: string;
  databaseUrl?: string;
  env?: Record<string, string>;
}

export interface ServerProcess {
  origin: string;
  /** The running process's id (undefined between a kill and the next start). */
  readonly pid: number | undefined;
  /** Everything the current process wrote to stdout and stderr. */
  output(): string;
  /** Starts the process (again, on the same port and data) and resolves once it listens. */
  start(): Promise<void>;
  /** Sends `signal` and resolves when the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const START_TIMEOUT_MS = 30_000;

export async function serverProcess(opts: ServerProcessOptions): Promise<ServerProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    SVC_DATA_DIR: opts.dataDir,
    SVC_CLIENT_DIR: path.join(opts.dataDir, "no-client"),
    SVC_SECRET: "process-test-secret-process-test-secret-01",
    SVC_SIGNUP_OPEN: "1",
    SVC_LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
    PORT: String(port),
    SVC_PUBLIC_URL: origin,
    ...opts.env,
  };
  delete env.DATABASE_URL;
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;

  let child: ChildProcess | undefined;
  let output = "";
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  // A test that fails half-way must not leave a server behind.
  process.once("exit", () => {
    if (running()) child!.kill("SIGKILL");
  });

  return {
    origin,
    get pid() {
      return running() ? child!.pid : undefined;
    },
    output: () => output,
    async start() {
      if (running()) throw new Error("the server is already running");
      output = "";
      const proc = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
      child = proc;
      proc.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      proc.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          proc.kill("SIGKILL");
          reject(new Error(`the server did not listen within ${START_TIMEOUT_MS} ms:\n${output}`));
        }, START_TIMEOUT_MS);
        const onData = () => {
          if (!output.includes(`Inventory service: ${origin}`)) return;
          clearTimeout(timer);
          proc.off("exit", onExit);
          resolve();
        };
        const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
          clearTimeout(timer);
          reject(new Error(`the server exited (${code ?? signal}) before listening:\n${output}`));
        };
        proc.stdout.on("data", onData);
        proc.once("exit", onExit);
      });
    },
    async stop(signal = "SIGTERM") {
      const proc = child;
      if (!proc || !running()) return { code: proc?.exitCode ?? null, signal: proc?.signalCode ?? null };
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        proc.once("exit", (code, sig) => resolve({ code, signal: sig })),
      );
      proc.kill(signal);
      return exited;
    },
  };
}
