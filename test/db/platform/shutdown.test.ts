/**
 * Stopping the service: the real server process (server/main.ts, run from source) on PostgreSQL
 * when TEST_DATABASE_URL is set (a throwaway database), otherwise on an embedded PGlite in a
 * fresh data directory. SIGTERM while a keep-alive connection idles and a live shape request
 * waits must end the process promptly and cleanly.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { liveThingsPath, send as sendTo, type SendOptions } from "../../support/device-load.js";
import { emptyDatabase } from "../../support/pg-database.js";
import { serverProcess, type ServerProcess } from "../../support/server-process.js";

const adminUrl = process.env.TEST_DATABASE_URL;
let empty: Awaited<ReturnType<typeof emptyDatabase>> | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-shutdown-"));
let server: ServerProcess | undefined;

const send = (method: string, url: string, opts: SendOptions = {}) => sendTo(server!.origin, method, url, opts);

beforeAll(async () => {
  if (adminUrl) empty = await emptyDatabase(adminUrl, "svc_shutdown");
  server = await serverProcess({ dataDir, ...(empty ? { databaseUrl: empty.url } : {}) });
  await server.start();
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  await empty?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

test("SIGTERM ends the process within 2 s with exit code 0, while a keep-alive connection idles and a live shape request waits", async () => {
  // A signed-in person with an open live request, as a device would have.
  const email = `shutdown-${Date.now()}@example.test`;
  expect((await send("POST", "/api/v1/auth/sign-up", { body: { email, password: "correct horse battery", name: "Sid Shutdown" } })).status).toBe(200);
  const signIn = await send("POST", "/api/v1/auth/sign-in/email", { body: { email, password: "correct horse battery" } });
  expect(signIn.status).toBe(200);
  const cookie = (signIn.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
  const livePath = await liveThingsPath(server!.origin, { cookie });
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
  const started = Date.now();
  const { code, signal } = await server!.stop("SIGTERM");
  const elapsed = Date.now() - started;
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  expect(elapsed, `exited after ${elapsed} ms`).toBeLessThan(2000);
  expect(await live).toMatch(/answered|connection closed/);
  await idleClosed;
  agent.destroy();
});
