/**
 * live: 200 live SSE shape subscribers of one location, spread over five people of different roles
 * (so streams of one content are shared across people, and those of a viewer, who does not see
 * money, are not), and one writer; the time from each push's answer to each subscriber seeing the
 * change. A few subscribers are the real @electric-sql/client (`liveSse`); the rest read the event
 * stream with a plain fetch, so that this process, on the same two cores, costs little beside the
 * server. The server's own CPU per change is the figure that does not depend on the clients.
 */
import { ShapeStream, type Message, type Row } from "@electric-sql/client";
import { v7 as uuidv7 } from "uuid";
import { PROTOCOL } from "../../sync/protocol.js";
import { benchDatabase, benchService, cpuMs, percentile, signedIn } from "./support.js";

const CLIENTS = 200;
/** Of the CLIENTS, how many are the real Electric client. */
const REAL_CLIENTS = 10;
const ROLES = ["admin", "member", "member", "viewer"] as const;
const CHANGES = 20;

export interface LiveResult {
  clients: number;
  realClients: number;
  people: number;
  p50Ms: number;
  p99Ms: number;
  samples: number;
  /** CPU per change, ms: the server process, and this process running the subscribers. */
  serverCpuMsPerChange: number;
  /** The server's CPU per change beyond the push itself (measured with no subscriber), per subscriber. */
  serverCpuMsPerChangePerSubscriber: number;
  /** The same, the push included. */
  serverCpuMsPerChangePerSubscriberWithPush: number;
  /** The server's CPU per change with no subscriber: the push alone. */
  pushServerCpuMsPerChange: number;
  clientsCpuMsPerChange: number;
  /** The same changes with one subscriber left: the path itself, without 200 clients' work. */
  oneSubscriberP50Ms: number;
  /** The server's CPU per change then: the push itself and one delivery. */
  oneSubscriberServerCpuMsPerChange: number;
}

interface Person {
  cookie: string;
  offset: string;
  handle: string;
}

/** Reads a shape to its present (snapshot pages, then the log) as a device's first sync does: its offset and handle. */
async function caughtUp(url: string, cookie: string): Promise<{ offset: string; handle: string }> {
  let offset = "-1";
  let handle = "";
  for (;;) {
    const res = await fetch(`${url}?offset=${offset}${handle ? `&handle=${handle}` : ""}`, { headers: { cookie } });
    if (res.status !== 200) throw new Error(`shape ${res.status}`);
    await res.arrayBuffer();
    offset = res.headers.get("electric-offset")!;
    handle = res.headers.get("electric-handle")!;
    if (res.headers.has("electric-up-to-date")) return { offset, handle };
  }
}

/**
 * A lightweight subscriber: a plain fetch reading `live_sse` events, parsing only those that name
 * `id`; it asks again from the last up-to-date's position when the server ends the stream.
 */
function sseReader(url: string, person: Person, id: string, signal: AbortSignal, onVersion: (v: number) => void, onLive: () => void): void {
  let offset = person.offset;
  let live = false;
  const run = async () => {
    while (!signal.aborted) {
      const res = await fetch(`${url}?offset=${offset}&handle=${person.handle}&live=true&live_sse=true`, {
        headers: { cookie: person.cookie, accept: "text/event-stream" },
        signal,
      });
      if (res.status !== 200 || !res.body) throw new Error(`live_sse ${res.status}`);
      const decoder = new TextDecoder();
      let buffer = "";
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!event.startsWith("data: ")) continue;
          const data = event.slice(6);
          if (data.includes('"up-to-date"')) {
            offset = `${(JSON.parse(data) as { headers: { global_last_seen_lsn: string } }).headers.global_last_seen_lsn}_0`;
            if (!live) {
              live = true;
              onLive();
            }
          } else if (data.includes(id)) onVersion(Number((JSON.parse(data) as { value: { row_version: string } }).value.row_version));
        }
      }
    }
  };
  run().catch((err: unknown) => {
    if (!signal.aborted) console.error("live: a subscriber failed", err);
  });
}

export async function benchLive(): Promise<LiveResult> {
  const db = await benchDatabase();
  const svc = await benchService(db.url);
  const streams: ShapeStream<Row>[] = [];
  const readers = new AbortController();
  try {
    const owner = await signedIn(svc.url, "Live Owner");
    const origin = { origin: svc.url, "content-type": "application/json" };
    const others = await Promise.all(ROLES.map((role, i) => signedIn(svc.url, `Live ${role} ${i}`)));
    for (const [i, person] of others.entries()) {
      const invite = await fetch(`${svc.url}/api/v1/locations/${owner.locationId}/invites`, {
        method: "POST",
        headers: { cookie: owner.cookie, ...origin },
        body: JSON.stringify({ role: ROLES[i] }),
      });
      const { token } = (await invite.json()) as { token: string };
      const accepted = await fetch(`${svc.url}/api/v1/invites/accept`, {
        method: "POST",
        headers: { cookie: person.cookie, ...origin },
        body: JSON.stringify({ token }),
      });
      if (accepted.status !== 200) throw new Error(`invite accept ${accepted.status}`);
    }
    const id = uuidv7();
    const push = async (ops: unknown[]) => {
      const res = await fetch(`${svc.url}/api/v1/sync/push`, {
        method: "POST",
        headers: { cookie: owner.cookie, ...origin },
        body: JSON.stringify({ clientId: "writer", protocol: PROTOCOL, ops }),
      });
      if (res.status !== 200) throw new Error(`push ${res.status}`);
    };
    await push([{ id: uuidv7(), name: "thing.create", locationId: owner.locationId, args: { id, name: "v1" }, at: new Date().toISOString() }]);
    // One first sync per person, then every subscriber of that person resumes from its offset and handle.
    const url = `${svc.url}/api/v1/sync/shape/things`;
    const people: Person[] = await Promise.all([owner, ...others].map(async (p) => ({ cookie: p.cookie, ...(await caughtUp(url, p.cookie)) })));
    const seen = new Map<number, number[]>(); // version -> times seen
    const saw = (v: number) => {
      const now = performance.now();
      const times = seen.get(v);
      if (times) times.push(now);
      else seen.set(v, [now]);
    };
    let live = 0;
    await new Promise<void>((resolve) => {
      const onLive = () => {
        if (++live === CLIENTS) resolve();
      };
      for (let i = 0; i < CLIENTS; i++) {
        const person = people[i % people.length]!;
        if (i >= REAL_CLIENTS) {
          sseReader(url, person, id, readers.signal, saw, onLive);
          continue;
        }
        let upToDate = false;
        const s = new ShapeStream<Row>({
          url,
          headers: { cookie: person.cookie },
          offset: person.offset as `${number}_${number}`,
          handle: person.handle,
          liveSse: true,
        });
        s.subscribe((messages: Message<Row>[]) => {
          for (const m of messages) {
            if ("value" in m && m.value.id === id) saw(Number(m.value.row_version));
            if (!upToDate && "headers" in m && m.headers.control === "up-to-date") {
              upToDate = true;
              onLive();
            }
          }
        });
        streams.push(s);
      }
    });
    // Let every subscriber settle into its stream.
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
    readers.abort();
    for (const s of streams.slice(1)) s.unsubscribeAll();
    await new Promise((r) => setTimeout(r, 1500));
    const alone0 = cpuMs(svc.pid);
    const alone = await changes(CHANGES + 2, 2 * CHANGES + 1, 1);
    const oneSubscriberServerCpuMsPerChange = (cpuMs(svc.pid) - alone0) / CHANGES;
    // And with none: what the push itself costs the server, which no subscriber adds to.
    streams[0]?.unsubscribeAll();
    await new Promise((r) => setTimeout(r, 500));
    const none0 = cpuMs(svc.pid);
    await changes(2 * CHANGES + 2, 3 * CHANGES + 1, 0);
    const pushServerCpuMsPerChange = (cpuMs(svc.pid) - none0) / CHANGES;
    return {
      clients: CLIENTS,
      realClients: REAL_CLIENTS,
      people: people.length,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      samples: latencies.length,
      serverCpuMsPerChange,
      serverCpuMsPerChangePerSubscriber: (serverCpuMsPerChange - pushServerCpuMsPerChange) / CLIENTS,
      serverCpuMsPerChangePerSubscriberWithPush: serverCpuMsPerChange / CLIENTS,
      pushServerCpuMsPerChange,
      clientsCpuMsPerChange,
      oneSubscriberP50Ms: percentile(alone, 50),
      oneSubscriberServerCpuMsPerChange,
    };
  } finally {
    readers.abort();
    for (const s of streams) s.unsubscribeAll();
    await svc.close();
    await db.drop();
  }
}
