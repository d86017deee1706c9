/**
 * reads: the list endpoints (things, history) with a signed-in session at 50 connections, beside
 * /health, the smallest route of the same Express app (it runs the edge up to the same-site check).
 */
import autocannon from "autocannon";
import { benchDatabase, benchService, cpuMs, postgresCpuMs, seedThings, signedIn, stat, type Stat } from "./support.js";

export interface ReadsResult {
  hello: Stat;
  things: Stat;
  history: Stat;
  ratioToHello: number;
  /** CPU per request, ms, over every run: the server process and PostgreSQL (PostgreSQL is idle for hello). */
  cpuMsPerRequest: { hello: number; things: number; thingsPostgres: number; history: number; historyPostgres: number };
}

const run = async (url: string, cookie?: string) => {
  const r = await autocannon({ url, connections: 50, duration: 5, ...(cookie ? { headers: { cookie } } : {}) });
  return { perSec: r.requests.average, total: r.requests.total };
};

/** Runs `fn`, adding the server's and PostgreSQL's CPU and the requests it made to `acc`. */
async function measured(acc: { server: number; postgres: number; requests: number }, pid: number, dbName: string, fn: () => ReturnType<typeof run>) {
  const s0 = cpuMs(pid);
  const p0 = postgresCpuMs(dbName);
  const r = await fn();
  acc.server += cpuMs(pid) - s0;
  acc.postgres += postgresCpuMs(dbName) - p0;
  acc.requests += r.total;
  return r.perSec;
}

export async function benchReads(): Promise<ReadsResult> {
  const db = await benchDatabase();
  const svc = await benchService(db.url);
  try {
    const owner = await signedIn(svc.url, "Reads Owner");
    await seedThings(db.url, owner.locationId, 10_000);
    const t = await fetch(`${svc.url}/api/v1/locations/${owner.locationId}/things`, {
      method: "POST",
      headers: { cookie: owner.cookie, origin: svc.url, "content-type": "application/json" },
      body: JSON.stringify({ name: "With history" }),
    });
    const thingId = ((await t.json()) as { id: string }).id;
    const hello: number[] = [];
    const things: number[] = [];
    const history: number[] = [];
    const dbName = new URL(db.url).pathname.slice(1);
    const helloCpu = { server: 0, postgres: 0, requests: 0 };
    const thingsCpu = { server: 0, postgres: 0, requests: 0 };
    const historyCpu = { server: 0, postgres: 0, requests: 0 };
    for (let i = 0; i < 3; i++) {
      hello.push(await measured(helloCpu, svc.pid, dbName, () => run(`${svc.url}/health`)));
      things.push(await measured(thingsCpu, svc.pid, dbName, () => run(`${svc.url}/api/v1/locations/${owner.locationId}/things?limit=50`, owner.cookie)));
      history.push(await measured(historyCpu, svc.pid, dbName, () => run(`${svc.url}/api/v1/things/${thingId}/history`, owner.cookie)));
    }
    const h = stat(hello);
    const th = stat(things);
    return {
      hello: h,
      things: th,
      history: stat(history),
      ratioToHello: th.median / h.median,
      cpuMsPerRequest: {
        hello: helloCpu.server / helloCpu.requests,
        things: thingsCpu.server / thingsCpu.requests,
        thingsPostgres: thingsCpu.postgres / thingsCpu.requests,
        history: historyCpu.server / historyCpu.requests,
        historyPostgres: historyCpu.postgres / historyCpu.requests,
      },
    };
  } finally {
    await svc.close();
    await db.drop();
  }
}
