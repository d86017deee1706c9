/**
 * Stopping the service: the real server process (server/main.ts, run from source) on PostgreSQL
 * when TEST_DATABASE_URL is set (a throwaway database), otherwise on an embedded PGlite in a
 * fresh data directory. SIGTERM while a keep-alive connection idles and a live shape request
 * waits must end the process promptly and cleanly.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request as httpRequest, type IncomingMessage } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";

const adminUrl = process.env.TEST_DATABASE_URL;
const dbName = `svc_shutdown_${Date.now()}_${randomBytes(4).toString("hex")}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-shutdown-"));
let child: ChildProcess | undefined;
let origin = "";

async function admin(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface Answer {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}

function send(method: string, url: string, opts: { body?: unknown; cookie?: string; agent?: Agent } = {}): Promise<Answer> {
  const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const headers: Record<string, string> = { origin };
  if (payload !== undefined) headers["content-type"] = "application/json";
  if (opts.cookie) headers.cookie = opts.cookie;
  return new Promise((resolve, reject) => {
    const req = httpRequest(origin + url, { method, headers, agent: opts.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

beforeAll(async () => {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    SVC_DATA_DIR: dataDir,
    SVC_CLIENT_DIR: path.join(dataDir, "no-client"),
    SVC_SECRET: "shutdown-test-secret-shutdown-test-secret",
    SVC_SIGNUP_OPEN: "1",
    SVC_LOG_LEVEL: "warn",
    HOST: "127.0.0.1",
  };
  delete env.DATABASE_URL;
  if (adminUrl) {
    await admin(`CREATE DATABASE ${dbName}`);
    const u = new URL(adminUrl);
    u.pathname = `/${dbName}`;
    env.DATABASE_URL = u.toString();
  }
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  env.PORT = String(port);
  env.SVC_PUBLIC_URL = origin;
  child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`Inventory service: ${origin}`)) resolve();
    };
    child!.stdout!.on("data", onData);
    child!.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child!.on("exit", (code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
  });
});

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  if (adminUrl) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  rmSync(dataDir, { recursive: true, force: true });
});

test("SIGTERM ends the process within 2 s with exit code 0, while a keep-alive connection idles and a live shape request waits", async () => {
  // A signed-in person with an open live request, as a device would have.
  const email = `shutdown-${Date.now()}@example.test`;
  expect((await send("POST", "/api/v1/auth/sign-up", { body: { email, password: "correct horse battery", name: "Sid Shutdown" } })).status).toBe(200);
  const signIn = await send("POST", "/api/v1/auth/sign-in/email", { body: { email, password: "correct horse battery" } });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  let page = await send("GET", "/api/v1/sync/shape/things?offset=-1", { cookie });
  for (let i = 0; page.headers["electric-up-to-date"] === undefined && i < 10; i++) {
    expect(page.status).toBe(200);
    page = await send("GET", `/api/v1/sync/shape/things?offset=${String(page.headers["electric-offset"])}&handle=${String(page.headers["electric-handle"])}`, { cookie });
  }
  expect(page.headers["electric-up-to-date"]).toBeDefined();
  const livePath = `/api/v1/sync/shape/things?live=true&offset=${String(page.headers["electric-offset"])}&handle=${String(page.headers["electric-handle"])}`;
  const live = send("GET", livePath, { cookie }).then(
    () => "answered",
    () => "connection closed",
  );

  // A keep-alive connection that answered once and now idles.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  expect((await send("GET", "/health", { agent })).status).toBe(200);
  const idle = Object.values(agent.freeSockets).flat()[0];
  expect(idle).toBeDefined();
  const idleClosed = new Promise<void>((resolve) => idle!.once("close", () => resolve()));

  // The live request is waiting at the server (its 20 s long poll) when the signal comes.
  await new Promise((r) => setTimeout(r, 300));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child!.once("exit", (code, signal) => resolve({ code, signal })));
  const started = Date.now();
  child!.kill("SIGTERM");
  const { code, signal } = await exited;
  const elapsed = Date.now() - started;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(elapsed, `exited after ${elapsed} ms`).toBeLessThan(2000);
  expect(await live).toMatch(/answered|connection closed/);
  await idleClosed;
  agent.destroy();
});
