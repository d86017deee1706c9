/**
 * Two replicas (docs/admin/several-servers.md): two server processes on one fresh PostgreSQL
 * database, the same SVC_SECRET, files in one S3-compatible bucket, behind a small proxy on
 * loopback that sends a request to the replica its `x-replica` header names, or else round-robin.
 * Needs PostgreSQL: an embedded PGlite belongs to one process.
 */
import { randomBytes } from "node:crypto";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Shape, ShapeStream, type Row, type ShapeStreamInterface } from "@electric-sql/client";
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PROTOCOL } from "../../../sync/protocol.js";
import { emptyDatabase } from "../../support/pg-database.js";
import { startS3, type TestS3 } from "../../support/s3.js";

const PG_URL = process.env.TEST_DATABASE_URL;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const SESSION_CACHE_MS = 500;
const SECRET = `replicas-${randomBytes(16).toString("hex")}`;
type Name = "a" | "b";

interface Replica {
  name: Name;
  url: string;
  /** Everything the process printed (its warnings and errors: SVC_LOG_LEVEL=warn). */
  output: string[];
  stop(): Promise<void>;
}

interface Served {
  replica: Name;
  /** Sent to this replica by its x-replica header (not round-robin). */
  pinned: boolean;
  method: string;
  path: string;
  status: number;
}

const cleanup: (() => Promise<void>)[] = [];
const replicas: Partial<Record<Name, Replica>> = {};
const served: Served[] = [];
let proxyUrl = "";
let dbUrl = "";
let s3: TestS3;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** `server/main.ts` in its own process, as `npm run dev` runs it, configured like a replica. */
async function startReplica(name: Name): Promise<Replica> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `svc-replica-${name}-`));
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "server/main.ts")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? tmpdir(),
      TZ: "UTC",
      PORT: String(port),
      HOST: "127.0.0.1",
      SVC_PUBLIC_URL: proxyUrl,
      SVC_SIGNUP_OPEN: "1",
      SVC_LOG_LEVEL: "warn",
      SVC_TRUSTED_PROXIES: "loopback",
      SVC_SECRET: SECRET,
      SVC_SESSION_CACHE_MS: String(SESSION_CACHE_MS),
      SVC_DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      ...s3.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout?.on("data", (d: Buffer) => output.push(d.toString()));
  child.stderr?.on("data", (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const kill = () => child.exitCode === null && child.signalCode === null && child.kill("SIGKILL");
  process.once("exit", kill);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(kill, 5000);
      await exited;
      clearTimeout(timer);
    }
    process.off("exit", kill);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 25_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error(`replica ${name} did not start:\n${output.join("")}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { name, url, output, stop };
}

async function startBoth(): Promise<void> {
  const [a, b] = await Promise.allSettled([startReplica("a"), startReplica("b")]);
  for (const r of [a, b]) if (r.status === "fulfilled") replicas[r.value.name] = r.value;
  for (const r of [a, b]) if (r.status === "rejected") throw r.reason;
}

async function stopBoth(): Promise<void> {
  await Promise.all([replicas.a?.stop(), replicas.b?.stop()]);
  delete replicas.a;
  delete replicas.b;
}

/** The load balancer: `x-replica: a|b` picks the replica, otherwise round-robin; answers say who served. */
async function startProxy(): Promise<Server> {
  let next = 0;
  const server = createServer((req, res) => {
    const pinned = req.headers["x-replica"];
    const name: Name = pinned === "a" || pinned === "b" ? pinned : next++ % 2 ? "b" : "a";
    const target = replicas[name];
    if (!target) {
      res.writeHead(502).end();
      return;
    }
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const up = httpRequest(`${target.url}${req.url}`, { method: req.method, headers: { ...req.headers, "x-forwarded-for": forwarded } }, (r) => {
      served.push({ replica: name, pinned: pinned === name, method: req.method ?? "", path: (req.url ?? "").split("?")[0]!, status: r.statusCode ?? 0 });
      res.writeHead(r.statusCode ?? 502, { ...r.headers, "x-served-by": name });
      r.pipe(res);
    });
    up.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    // A client that goes away (a stream unsubscribed) ends its upstream request too.
    res.on("close", () => up.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

interface Answer {
  status: number;
  body: any;
  servedBy: string | null;
}

/** A device: keeps its cookies, comes from its own address (X-Forwarded-For through the proxy). */
function device(address: string) {
  const cookies = new Map<string, string>();
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const request = async (via: Name | undefined, method: string, p: string, body?: unknown): Promise<Answer> => {
    const headers: Record<string, string> = { origin: proxyUrl, "x-forwarded-for": address };
    if (via) headers["x-replica"] = via;
    if (cookies.size) headers.cookie = cookie();
    if (body !== undefined) headers["content-type"] = "application/json";
    const res = await fetch(`${proxyUrl}${p}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      if (pair!.slice(i + 1) === "" || /max-age=0/i.test(c)) cookies.delete(pair!.slice(0, i));
      else cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed, servedBy: res.headers.get("x-served-by") };
  };
  return {
    cookies,
    cookie,
    get: (via: Name | undefined, p: string) => request(via, "GET", p),
    post: (via: Name | undefined, p: string, body: unknown = {}) => request(via, "POST", p, body),
    delete: (via: Name | undefined, p: string) => request(via, "DELETE", p),
    request,
  };
}
type Device = ReturnType<typeof device>;

const PASSWORD = "correct horse battery";

async function signIn(d: Device, via: Name, email: string): Promise<void> {
  const res = await d.post(via, "/api/v1/auth/sign-in/email", { email, password: PASSWORD });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
}

async function admin<T extends pg.QueryResultRow>(q: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    return (await c.query<T>(q, params)).rows;
  } finally {
    await c.end();
  }
}

const why = "skipped: needs TEST_DATABASE_URL (two server processes share one PostgreSQL; an embedded PGlite belongs to one process)";
if (!PG_URL) console.warn(`test/db/platform/replicas.test.ts ${why}`);

describe.skipIf(!PG_URL)(`two server processes behind one proxy${PG_URL ? "" : ` (${why})`}`, () => {
  let owner: Device;
  let email: string;
  let locationId: string;

  beforeAll(async () => {
    const empty = await emptyDatabase(PG_URL!, "svc_test_replicas");
    cleanup.push(() => empty.drop());
    dbUrl = empty.url;
    s3 = await startS3();
    cleanup.push(() => s3.close());
    const proxy = await startProxy();
    cleanup.push(async () => {
      proxy.closeAllConnections();
      await new Promise((r) => proxy.close(r));
    });
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    cleanup.push(stopBoth);
    // Both at once on the empty database: they must not trip over each other's migrations.
    await startBoth();

    owner = device("10.77.0.1");
    email = `owner-${randomBytes(3).toString("hex")}@example.test`;
    expect((await owner.post("a", "/api/v1/auth/sign-up", { email, password: PASSWORD, name: "Olive Owner" })).status).toBe(200);
    await signIn(owner, "b", email);
    locationId = (await owner.get("a", "/api/v1/me")).body.locations[0].id as string;
  }, 60_000);

  afterAll(async () => {
    // Last in, first out: processes, then the proxy and the bucket, then the database.
    for (const step of cleanup.reverse()) await step().catch((err: unknown) => console.error("replicas cleanup:", err));
  });

  test("both started together on an empty database: the migrations ran once", async () => {
    const journal = JSON.parse(readFileSync(path.join(ROOT, "migrations/meta/_journal.json"), "utf8")) as { entries: unknown[] };
    const [{ n }] = (await admin<{ n: number }>(`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`)) as [{ n: number }];
    expect(n).toBe(journal.entries.length);
    expect((await fetch(`${replicas.a!.url}/health`)).ok && (await fetch(`${replicas.b!.url}/health`)).ok).toBe(true);
  });

  test("a setup code one replica printed works through the other; afterwards no replica's code is kept", async () => {
    const codeOf = async (r: Replica) => {
      await expect.poll(() => r.output.join(""), { timeout: 10_000 }).toMatch(/\/setup#code=/);
      return /\/setup#code=([\w-]+)/.exec(r.output.join(""))![1]!;
    };
    const [codeA, codeB] = [await codeOf(replicas.a!), await codeOf(replicas.b!)];
    expect(codeA).not.toBe(codeB);
    const first = device("10.77.0.9");
    const body = { email: `ada-${randomBytes(3).toString("hex")}@example.test`, name: "Ada Admin", password: PASSWORD };
    const res = await first.post("b", "/api/v1/setup", { ...body, code: codeA });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await admin(`SELECT key FROM instance_settings WHERE key LIKE 'setup_code.%'`)).toEqual([]);
    expect((await first.post("a", "/api/v1/setup", { ...body, email: `x-${body.email}`, code: codeB })).status).toBe(409);
  });

  test("SH6 a device live on replica A sees a write made through replica B; a round-robin device follows too", async () => {
    const stream = (pin?: Name) =>
      new ShapeStream<Row>({
        url: `${proxyUrl}/api/v1/sync/shape/things`,
        headers: { cookie: owner.cookie(), ...(pin ? { "x-replica": pin } : {}) },
      });
    const pinned = stream("a");
    const roundRobin = stream();
    const shapes = [pinned, roundRobin].map((s) => new Shape(s as unknown as ShapeStreamInterface<Row>));
    try {
      await Promise.all(shapes.map((s) => s.rows));
      const id = uuidv7();
      const push = await owner.post("b", "/api/v1/sync/push", {
        clientId: "replica-test",
        protocol: PROTOCOL,
        ops: [{ id: uuidv7(), at: new Date().toISOString(), name: "thing.create", locationId, args: { id, name: "Kayak" } }],
      });
      expect(push.servedBy).toBe("b");
      expect(push.body.results[0].status).toBe("applied");
      // Live requests wait up to 20 s when nothing changes: arriving sooner means B's commit woke A.
      for (const shape of shapes) await expect.poll(() => shape.currentRows.some((r) => r.id === id && r.name === "Kayak"), { timeout: 10_000 }).toBe(true);
      const shapeRequests = served.filter((s) => s.path === "/api/v1/sync/shape/things");
      // The pinned stream went only to A; the other one reached both, and neither was told to refetch.
      expect(new Set(shapeRequests.filter((s) => s.pinned).map((s) => s.replica))).toEqual(new Set(["a"]));
      expect(new Set(shapeRequests.filter((s) => !s.pinned).map((s) => s.replica))).toEqual(new Set(["a", "b"]));
      expect(shapeRequests.filter((s) => s.status === 409)).toEqual([]);
    } finally {
      pinned.unsubscribeAll();
      roundRobin.unsubscribeAll();
    }
  });

  test("a device signed out on replica A is refused by replica B once SVC_SESSION_CACHE_MS has passed", async () => {
    const phone = device("10.77.0.2");
    await signIn(phone, "b", email);
    // B resolves (and remembers) the phone's session.
    expect((await phone.get("b", "/api/v1/me")).status).toBe(200);
    const phoneId = (await phone.get("b", "/api/v1/auth/get-session")).body.session.id as string;
    const revoked = await owner.delete("a", `/api/v1/me/sessions/${phoneId}`);
    expect(revoked).toMatchObject({ status: 200, servedBy: "a" });
    const at = Date.now();
    // A forgot at once; B's memory of the session is older than the revocation and runs out.
    expect((await phone.get("a", "/api/v1/me")).status).toBe(401);
    await new Promise((r) => setTimeout(r, Math.max(0, at + SESSION_CACHE_MS + 50 - Date.now())));
    const late = await phone.get("b", "/api/v1/me");
    expect(late).toMatchObject({ status: 401, servedBy: "b" });
    expect((await owner.get("b", "/api/v1/me")).status).toBe(200);
  });

  test("the sign-in attempt limit (5 a minute per address) holds across replicas: the counters live in PostgreSQL", async () => {
    const from = device("10.77.0.3");
    const answers: Answer[] = [];
    // Five different accounts, so only the per-address attempt limit can refuse.
    for (let i = 0; i < 5; i++)
      answers.push(await from.post(i % 2 ? "b" : "a", "/api/v1/auth/sign-in/email", { email: `nobody-${i}@example.test`, password: "wrong password" }));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    // Three went to A and two to B; each alone is under the limit, together they reach it.
    for (const via of ["a", "b"] as const) {
      const sixth = await from.post(via, "/api/v1/auth/sign-in/email", { email: "nobody-6@example.test", password: "wrong password" });
      expect(sixth).toMatchObject({ status: 429, servedBy: via });
    }
  });

  test("a file uploaded through A is served by B from the shared bucket", async () => {
    const png = Buffer.concat([
      Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64"),
      randomBytes(64),
    ]);
    const up = await fetch(`${proxyUrl}/api/v1/files?locationId=${locationId}`, {
      method: "POST",
      headers: { origin: proxyUrl, cookie: owner.cookie(), "x-replica": "a", "content-type": "image/png" },
      body: new Uint8Array(png),
    });
    expect(up.status).toBe(201);
    const { id } = (await up.json()) as { id: string };
    const down = await fetch(`${proxyUrl}/api/v1/files/${id}`, { headers: { cookie: owner.cookie(), "x-replica": "b" } });
    expect(down.headers.get("x-served-by")).toBe("b");
    expect(down.status).toBe(200);
    expect(down.headers.get("content-type")).toBe("image/png");
    expect(down.headers.get("content-length")).toBe(String(png.length));
    expect(Buffer.from(await down.arrayBuffer()).equals(png)).toBe(true);
  });

  test("restarted together, both run the start-up bootstrap repair at once: each broken sign-up is repaired exactly once; sessions survive", async () => {
    // Sign-ups that stopped after step 1 (a user row, no owner records), as a crash would leave them.
    const bare = await admin<{ id: string }>(
      `INSERT INTO users (name, email) SELECT 'Bare ' || g, 'bare-' || g || '-' || $1 || '@example.test' FROM generate_series(1, 25) g RETURNING id`,
      [randomBytes(3).toString("hex")],
    );
    await stopBoth();
    await startBoth();
    const ids = bare.map((b) => b.id);
    const counts = () =>
      admin<{ accounts: number; personal: number; owners: number; unplaced: number }>(
        `SELECT (SELECT count(*) FROM accounts WHERE owner_user_id = ANY ($1::uuid[]))::int AS accounts,
                (SELECT count(*) FROM locations l JOIN accounts a ON a.id = l.account_id WHERE l.is_personal AND a.owner_user_id = ANY ($1::uuid[]))::int AS personal,
                (SELECT count(*) FROM memberships WHERE role = 'owner' AND deleted_at IS NULL AND user_id = ANY ($1::uuid[]))::int AS owners,
                (SELECT count(*) FROM places p JOIN locations l ON l.id = p.location_id JOIN accounts a ON a.id = l.account_id
                  WHERE p.is_unplaced AND a.owner_user_id = ANY ($1::uuid[]))::int AS unplaced`,
        [ids],
      );
    await expect.poll(async () => (await counts())[0]!.owners, { timeout: 15_000 }).toBe(ids.length);
    expect((await counts())[0]).toEqual({ accounts: ids.length, personal: ids.length, owners: ids.length, unplaced: ids.length });
    const logs = replicas.a!.output.join("") + replicas.b!.output.join("");
    expect(logs).toContain("bootstrap repair: created missing owner records");
    expect(logs).not.toContain("bootstrap repair failed");
    // The same secret and sessions in the database: a restart signs no one out.
    expect((await owner.get("a", "/api/v1/me")).status).toBe(200);
    expect((await owner.get("b", "/api/v1/me")).status).toBe(200);
  });
});
