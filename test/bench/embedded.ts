/**
 * embedded and postgres: does the server stay responsive while devices push? Two devices push
 * 1000-op batches back to back while a third client asks /health every 20 ms; the figure is the
 * /health latency during the storm (p50, p99) beside the storm's own ops/s. `embedded` runs it on
 * the embedded PGlite, `postgres` on a fresh database of the machine's PostgreSQL, dropped after.
 */
import { v7 as uuidv7 } from "uuid";
import { PROTOCOL } from "../../sync/protocol.js";
import { benchDatabase, benchService, signedIn } from "./support.js";

const BATCH = 1000;
const BATCHES_PER_DEVICE = 8;

export interface EmbeddedResult {
  healthP50DuringPushMs: number;
  healthP99DuringPushMs: number;
  healthMaxDuringPushMs: number;
  healthSamples: number;
  pushOpsPerSec: number;
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

export const benchEmbedded = (): Promise<EmbeddedResult> => healthDuringPush();

export async function benchPostgresHealth(): Promise<EmbeddedResult> {
  const db = await benchDatabase();
  try {
    return await healthDuringPush(db.url);
  } finally {
    await db.drop();
  }
}

async function healthDuringPush(databaseUrl?: string): Promise<EmbeddedResult> {
  const svc = await benchService(databaseUrl);
  try {
    const devices = [await signedIn(svc.url, "Embedded One"), await signedIn(svc.url, "Embedded Two")];
    const pushAll = async (d: (typeof devices)[number]) => {
      for (let b = 0; b < BATCHES_PER_DEVICE; b++) {
        const ops = Array.from({ length: BATCH }, (_, i) => ({
          id: uuidv7(),
          name: "thing.create",
          locationId: d.locationId,
          args: { id: uuidv7(), name: `Box ${b}-${i}` },
          at: new Date().toISOString(),
        }));
        const res = await fetch(`${svc.url}/api/v1/sync/push`, {
          method: "POST",
          headers: { cookie: d.cookie, origin: svc.url, "content-type": "application/json" },
          body: JSON.stringify({ clientId: `bench-${d.userId.slice(-6)}`, protocol: PROTOCOL, ops }),
        });
        const body = (await res.json()) as { results?: { status: string }[] };
        if (res.status !== 200 || body.results?.some((r) => r.status !== "applied"))
          throw new Error(`push failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
      }
    };
    // One warm-up batch per device (first plans, first pages of the tables), not measured.
    await Promise.all(
      devices.map(async (d) => {
        const ops = [{ id: uuidv7(), name: "thing.create", locationId: d.locationId, args: { id: uuidv7(), name: "warm" }, at: new Date().toISOString() }];
        await fetch(`${svc.url}/api/v1/sync/push`, {
          method: "POST",
          headers: { cookie: d.cookie, origin: svc.url, "content-type": "application/json" },
          body: JSON.stringify({ clientId: "warm", protocol: PROTOCOL, ops }),
        });
      }),
    );

    let storming = true;
    const latencies: number[] = [];
    const poller = (async () => {
      while (storming) {
        const t0 = performance.now();
        const res = await fetch(`${svc.url}/health`);
        await res.arrayBuffer();
        if (storming) latencies.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const t0 = performance.now();
    await Promise.all(devices.map(pushAll));
    const seconds = (performance.now() - t0) / 1000;
    storming = false;
    await poller;
    return {
      healthP50DuringPushMs: percentile(latencies, 50),
      healthP99DuringPushMs: percentile(latencies, 99),
      healthMaxDuringPushMs: Math.max(...latencies),
      healthSamples: latencies.length,
      pushOpsPerSec: (devices.length * BATCHES_PER_DEVICE * BATCH) / seconds,
    };
  } finally {
    await svc.close();
  }
}
