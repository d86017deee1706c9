/**
 * The request log (server/http/request-log.ts) through real Express and pino: a request that went
 * well and fast is a debug line, one refused info, one slow warn, one that failed error, and a
 * live shape request that waits by design is not "slow".
 */
import type { AddressInfo } from "node:net";
import express from "express";
import { pino } from "pino";
import { afterAll, beforeAll, expect, test } from "vitest";
import { requestLogger, requestLogLevel, SLOW_REQUEST_MS } from "../../server/http/request-log.js";

const SLOW_MS = 60;
const lines: { level: number; msg: string; req?: { url: string }; res?: { statusCode: number } }[] = [];
let base = "";
let close: () => Promise<void>;

beforeAll(async () => {
  const logger = pino({ level: "debug" }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
  const app = express();
  app.use((req, _res, next) => {
    req.id = "test";
    next();
  });
  app.use(requestLogger(logger, SLOW_MS));
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  app.get("/fast", (_req, res) => void res.json({ ok: true }));
  app.get("/refused", (_req, res) => void res.status(404).json({}));
  app.get("/failed", (_req, res) => void res.status(500).json({}));
  app.get("/slow", (_req, res) => void wait(SLOW_MS * 2).then(() => res.json({ ok: true })));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});
afterAll(async () => close?.());

/** The level name of the one line logged for `path`. */
async function levelOf(path: string): Promise<string> {
  const before = lines.length;
  await (await fetch(base + path)).arrayBuffer();
  await expect.poll(() => lines.length).toBeGreaterThan(before);
  const line = lines.slice(before).find((l) => l.req?.url === path.split("?")[0]);
  return pino.levels.labels[line?.level ?? 0] ?? "none";
}

test("a fast 200 is logged at debug, so the default level (info) shows none", async () => {
  expect(await levelOf("/fast")).toBe("debug");
});

test("a refused request is info, a failed one error, a slow one warn", async () => {
  expect(await levelOf("/refused")).toBe("info");
  expect(await levelOf("/failed")).toBe("error");
  expect(await levelOf("/slow")).toBe("warn");
});

test("the query string is not logged, and a live shape request is not slow however long it waits", async () => {
  expect(await levelOf("/slow?live=true&handle=secret-ish")).toBe("debug");
  expect(JSON.stringify(lines)).not.toContain("secret-ish");
  expect(requestLogLevel(200, SLOW_REQUEST_MS + 1, "/api/v1/sync/shape/things?offset=1_0")).toBe("warn");
  expect(requestLogLevel(200, SLOW_REQUEST_MS - 1, "/api/v1/sync/shape/things")).toBe("debug");
  expect(requestLogLevel(503, 5, "/api/v1/me")).toBe("error");
});
