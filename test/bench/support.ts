/** Shared pieces of the benchmarks: a service on a fresh database, clients, statistics. */
import { randomBytes } from "node:crypto";
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";

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
  pid: number;
  close(): Promise<void>;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Builds the server once per bench run (dist/ is what `npm start` runs). */
export function buildServer(): void {
  execFileSync("npx", ["tsc", "-p", "tsconfig.server.json"], { cwd: ROOT, stdio: "inherit" });
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/**
 * The real server as `npm start` runs it, in its own process (so the load generator does not
 * share its event loop), on `databaseUrl` or, without one, on an embedded PGlite in `dataDir`
 * (a fresh temp dir unless given: the memory bench reopens one a first run filled).
 */
export async function benchService(databaseUrl?: string, dataDir?: string): Promise<BenchService> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the server process there (open it in DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, path.join(ROOT, "dist/server/main.js")], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_PUBLIC_URL: url,
      SVC_SIGNUP_OPEN: "1",
      SVC_LOG_LEVEL: "warn",
      SVC_TRUSTED_PROXIES: "loopback",
      SVC_DATA_DIR: dataDir ?? mkdtempSync(path.join(tmpdir(), "svc-bench-")),
      SVC_SECRET: "bench-secret-bench-secret-bench-secret-01",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("bench server did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    pid: child.pid!,
    async close() {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    },
  };
}

/** CPU time (user + system) a process has used so far, in ms. */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms
}

/** CPU time (ms) used so far by the PostgreSQL backends serving `databaseName` (all on this machine). */
export function postgresCpuMs(databaseName: string): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(` ${databaseName} `)) total += cpuMs(Number(entry));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return total;
}

/** Resident memory of a process, in MB. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

let ip = 10;
/** Signs up and in; returns the cookie header and the user's personal location. Each user comes from its own address. */
export async function signedIn(url: string, name: string): Promise<{ cookie: string; locationId: string; userId: string; email: string; password: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, "-")}-${randomBytes(3).toString("hex")}@bench.test`;
  const headers = { "content-type": "application/json", origin: url, "x-forwarded-for": `10.9.0.${ip++}` };
  await fetch(`${url}/api/v1/auth/sign-up`, { method: "POST", headers, body: JSON.stringify({ email, password: "bench password 1", name }) });
  const res = await fetch(`${url}/api/v1/auth/sign-in/email`, { method: "POST", headers, body: JSON.stringify({ email, password: "bench password 1" }) });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const me = (await (await fetch(`${url}/api/v1/me`, { headers: { cookie } })).json()) as { user: { id: string }; locations: { id: string }[] };
  return { cookie, locationId: me.locations[0]!.id, userId: me.user.id, email, password: "bench password 1" };
}

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * Adds `n` things to the location's Unplaced area in one statement, then ANALYZE: the steady state
 * autovacuum would reach after a bulk load. Returns their ids.
 */
export async function seedThings(databaseUrl: string, locationId: string, n: number, createdBy?: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO things (id, location_id, place_id, type_id, name, created_by)
       SELECT gen_random_uuid(), $1,
              (SELECT id FROM places WHERE location_id = $1 AND is_unplaced),
              (SELECT id FROM types WHERE account_id = (SELECT account_id FROM locations WHERE id = $1) AND builtin_key = 'thing'),
              'Thing ' || g, $2
       FROM generate_series(1, $3) g RETURNING id`,
      [locationId, createdBy ?? null, n],
    );
    await client.query("ANALYZE");
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}
