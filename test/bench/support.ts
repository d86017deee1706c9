/** Shared pieces of the benchmarks: a service on a fresh database, clients, statistics. */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import express from "express";
import pg from "pg";
import { pino } from "pino";
import { createApp, createServices, type Services } from "../../server/app.js";
import { loadConfig } from "../../server/config.js";
import { migrate, openDatabase, type Database } from "../../server/db/client.js";

export const PG_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface Stat {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function stat(xs: number[]): Stat {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  return { median, min: s[0]!, max: s[s.length - 1]!, runs: s.length };
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** A fresh PostgreSQL database for one benchmark, dropped by `drop()`. */
export async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `svc_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: PG_URL });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

export interface BenchService {
  url: string;
  services: Services;
  database: Database;
  close(): Promise<void>;
}

/** The real app on `databaseUrl`, plus a bare `/hello` route in the same Express process. */
export async function benchService(databaseUrl: string): Promise<BenchService> {
  const database = await openDatabase({ databaseUrl, poolSize: Number(process.env.BENCH_POOL ?? 10) });
  await migrate(database);
  const server = (await import("node:http")).createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig(
    { SVC_SIGNUP_OPEN: "1", SVC_LOG_LEVEL: "silent", PORT: "0", SVC_PUBLIC_URL: url, SVC_DATA_DIR: mkdtempSync(path.join(tmpdir(), "svc-bench-")), SVC_TRUSTED_PROXIES: "loopback" },
    { secret: "bench-secret-bench-secret-bench-secret-01" },
  );
  const services = createServices(config, database, pino({ level: "silent" }));
  const { app } = createApp(services);
  const outer = express();
  outer.get("/hello", (_req, res) => {
    res.json({ hello: "world" });
  });
  outer.use(app);
  server.on("request", outer);
  return {
    url,
    services,
    database,
    async close() {
      await services.notifier.close();
      (server as Server).closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await database.close();
    },
  };
}

let ip = 10;
/** Signs up and in; returns the cookie header and the user's personal location. Each user comes from its own address. */
export async function signedIn(url: string, name: string): Promise<{ cookie: string; locationId: string; userId: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${randomBytes(3).toString("hex")}@bench.test`;
  const headers = { "content-type": "application/json", origin: url, "x-forwarded-for": `10.9.0.${ip++}` };
  await fetch(`${url}/api/v1/auth/sign-up`, { method: "POST", headers, body: JSON.stringify({ email, password: "bench password 1", name }) });
  const res = await fetch(`${url}/api/v1/auth/sign-in/email`, { method: "POST", headers, body: JSON.stringify({ email, password: "bench password 1" }) });
  const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const me = (await (await fetch(`${url}/api/v1/me`, { headers: { cookie } })).json()) as { user: { id: string }; locations: { id: string }[] };
  return { cookie, locationId: me.locations[0]!.id, userId: me.user.id };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
