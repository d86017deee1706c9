/**
 * The real server on a fresh data dir (as `npm start` runs it): the last start-up line is the
 * setup URL with its one-time code in the fragment; the code makes the first instance admin; the
 * logger never carries the code; a restart after setup prints no setup URL.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, test } from "vitest";
import { serverProcess, type ServerProcess } from "../../support/server-process.js";

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-setup-"));
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const lines = (out: string) => out.split("\n").filter((l) => l.trim() !== "");

test("a fresh instance prints its setup URL last; the code makes the first admin once; a restart prints none", async () => {
  // Sign-up closed and the logger at info, as a default start: the setup line must still come last.
  server = await serverProcess({ dataDir, env: { SVC_SIGNUP_OPEN: "", SVC_LOG_LEVEL: "info" } });
  await server.start();
  await expect.poll(() => lines(server!.output()).at(-1) ?? "", { timeout: 30_000 }).toMatch(/\/setup#code=/);
  const last = lines(server.output()).at(-1)!;
  const url = new URL(/(http\S+)/.exec(last)![1]!);
  expect(url.origin).toBe(server.origin);
  expect(url.pathname).toBe("/setup");
  const code = new URLSearchParams(url.hash.slice(1)).get("code")!;
  expect(code.length).toBeGreaterThanOrEqual(20);
  // Printed once, on its own line: no log record carries it.
  expect(lines(server.output()).filter((l) => l.includes(code))).toEqual([last]);

  const post = (body: unknown) =>
    fetch(`${server!.origin}/api/v1/setup`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server!.origin },
      body: JSON.stringify(body),
    });
  const made = await post({ code, email: "first@example.test", name: "First Admin", password: "correct horse battery" });
  expect(made.status, await made.clone().text()).toBe(201);
  expect((await post({ code, email: "second@example.test", name: "Second", password: "correct horse battery" })).status).toBe(409);

  await server.stop();
  await server.start();
  await new Promise((r) => setTimeout(r, 1000));
  expect(server.output()).not.toContain("/setup#code=");
});
