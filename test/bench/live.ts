/**
 * live: 200 live shape subscribers (the real @electric-sql/client in Node) and one writer; the time
 * from each push's answer to each subscriber seeing the change.
 */
import { ShapeStream, type Message, type Row } from "@electric-sql/client";
import { v7 as uuidv7 } from "uuid";
import { PROTOCOL } from "../../sync/protocol.js";
import { benchDatabase, benchService, cpuMs, percentile, signedIn } from "./support.js";

const CLIENTS = 200;
const CHANGES = 20;

export interface LiveResult {
  clients: number;
  p50Ms: number;
  p99Ms: number;
  samples: number;
  /** CPU per change, ms: the server process, and this process running the subscribers. */
  serverCpuMsPerChange: number;
  clientsCpuMsPerChange: number;
  /** The same changes with one subscriber left: the path itself, without 200 clients' work. */
  oneSubscriberP50Ms: number;
}

export async function benchLive(): Promise<LiveResult> {
  const db = await benchDatabase();
  const svc = await benchService(db.url);
  const streams: ShapeStream<Row>[] = [];
  try {
    const owner = await signedIn(svc.url, "Live Owner");
    const id = uuidv7();
    const push = async (ops: unknown[]) => {
      const res = await fetch(`${svc.url}/api/v1/sync/push`, {
        method: "POST",
        headers: { cookie: owner.cookie, origin: svc.url, "content-type": "application/json" },
        body: JSON.stringify({ clientId: "writer", protocol: PROTOCOL, ops }),
      });
      if (res.status !== 200) throw new Error(`push ${res.status}`);
    };
    await push([{ id: uuidv7(), name: "thing.create", locationId: owner.locationId, args: { id, name: "v1" }, at: new Date().toISOString() }]);
    // One snapshot, then every subscriber resumes from its offset and handle (no 200 snapshots).
    const first = new ShapeStream<Row>({ url: `${svc.url}/api/v1/sync/shape/things`, headers: { cookie: owner.cookie }, subscribe: false });
    await new Promise<void>((resolve) =>
      first.subscribe((ms) => {
        if (ms.some((m) => "headers" in m && m.headers.control === "up-to-date")) resolve();
      }),
    );
    const offset = first.lastOffset;
    const handle = first.shapeHandle!;
    const seen = new Map<number, number[]>(); // version -> times seen
    let live = 0;
    await new Promise<void>((resolve) => {
      for (let i = 0; i < CLIENTS; i++) {
        let upToDate = false;
        const s = new ShapeStream<Row>({ url: `${svc.url}/api/v1/sync/shape/things`, headers: { cookie: owner.cookie }, offset, handle });
        s.subscribe((messages: Message<Row>[]) => {
          const now = performance.now();
          for (const m of messages) {
            if ("value" in m && m.value.id === id) {
              const v = Number(m.value.row_version);
              seen.set(v, [...(seen.get(v) ?? []), now]);
            }
            if (!upToDate && "headers" in m && m.headers.control === "up-to-date") {
              upToDate = true;
              if (++live === CLIENTS) resolve();
            }
          }
        });
        streams.push(s);
      }
    });
    // Let every subscriber settle into its long-poll.
    await new Promise((r) => setTimeout(r, 1500));
    /** Pushes changes versions `from`..`to` one by one; the latencies of `clients` subscribers. */
    const changes = async (from: number, to: number, clients: number) => {
      const latencies: number[] = [];
      for (let v = from; v <= to; v++) {
        await push([
          {
            id: uuidv7(),
            name: "thing.update",
            locationId: owner.locationId,
            args: { id, patch: { name: `v${v}` } },
            baseVersion: v - 1,
            at: new Date().toISOString(),
          },
        ]);
        const answered = performance.now();
        const deadline = answered + 10_000;
        while ((seen.get(v)?.length ?? 0) < clients && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
        const times = seen.get(v) ?? [];
        if (times.length < clients) throw new Error(`only ${times.length}/${clients} subscribers saw change ${v}`);
        for (const t of times) latencies.push(Math.max(0, t - answered));
        await new Promise((r) => setTimeout(r, 200));
      }
      return latencies;
    };
    // Where the time goes: both processes' CPU over the changes (the 200 ms pauses are idle).
    const server0 = cpuMs(svc.pid);
    const clients0 = process.cpuUsage();
    const latencies = await changes(2, CHANGES + 1, CLIENTS);
    const clientsCpu = process.cpuUsage(clients0);
    const serverCpuMsPerChange = (cpuMs(svc.pid) - server0) / CHANGES;
    const clientsCpuMsPerChange = (clientsCpu.user + clientsCpu.system) / 1000 / CHANGES;
    for (const s of streams.slice(1)) s.unsubscribeAll();
    await new Promise((r) => setTimeout(r, 1500));
    const alone = await changes(CHANGES + 2, 2 * CHANGES + 1, 1);
    return {
      clients: CLIENTS,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      samples: latencies.length,
      serverCpuMsPerChange,
      clientsCpuMsPerChange,
      oneSubscriberP50Ms: percentile(alone, 50),
    };
  } finally {
    for (const s of streams) s.unsubscribeAll();
    await svc.close();
    await db.drop();
  }
}
