/**
 * reads: the list endpoints (things, history) with a signed-in session at 50 connections, beside
 * /health, the smallest route of the same Express app (it runs the edge up to the same-site check).
 */
import autocannon from "autocannon";
import { benchDatabase, benchService, seedThings, signedIn, stat, type Stat } from "./support.js";

export interface ReadsResult {
  hello: Stat;
  things: Stat;
  history: Stat;
  ratioToHello: number;
}

const run = async (url: string, cookie?: string) =>
  (await autocannon({ url, connections: 50, duration: 5, ...(cookie ? { headers: { cookie } } : {}) })).requests.average;

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
    for (let i = 0; i < 3; i++) {
      hello.push(await run(`${svc.url}/health`));
      things.push(await run(`${svc.url}/api/v1/locations/${owner.locationId}/things?limit=50`, owner.cookie));
      history.push(await run(`${svc.url}/api/v1/things/${thingId}/history`, owner.cookie));
    }
    const h = stat(hello);
    const th = stat(things);
    return { hello: h, things: th, history: stat(history), ratioToHello: th.median / h.median };
  } finally {
    await svc.close();
    await db.drop();
  }
}
