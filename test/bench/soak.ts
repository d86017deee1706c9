/**
 * soak: BENCH_SOAK_MINUTES (10 by default) of steady mixed load on the real server (PostgreSQL):
 * pushes from three devices, live subscribers (real @electric-sql/client ShapeStreams plus bare
 * long-polls), authenticated reads (things list, history) and sign-ins. Every minute: the server's
 * RSS and the p99 of that minute's requests, per kind too. The least-squares slopes over the
 * minutes (the first one skipped as warm-up) say whether either drifts upward.
 *
 * The rate is fixed (open loop: a request starts on its tick whether or not the previous one has
 * answered), moderate enough for two shared cores, so a slow-down shows as latency, not as fewer
 * requests. Each kind keeps at most a few requests in flight; ticks past that are counted as skipped.
 */
import { loadavg } from "node:os";
import { ShapeStream, type Message, type Row } from "@electric-sql/client";
import { v7 as uuidv7 } from "uuid";
import { PROTOCOL } from "../../sync/protocol.js";
import { benchDatabase, benchService, cpuMs, percentile, postgresCpuMs, rssMb, seedThings, signedIn } from "./support.js";
import { fitLine, type Fit } from "./soak-stats.js";
import { signIn } from "./sign-in.js";

const DEVICES = 3;
const SUBSCRIBERS = 5;
const LONG_POLLS = 10;
const SEEDED = 2000;
/** Per device: one marker update (timed to the subscribers) and this many updates of its own things. */
const OPS_PER_PUSH = 20;

/** Interval between the starts of each kind's requests, ms (all devices together for pushes). */
const EVERY = { push: 500, things: 100, history: 500, signIn: 6000 } as const;
const MAX_IN_FLIGHT = 4;

type Kind = "push" | "things" | "history" | "signIn" | "live";
const KINDS: Kind[] = ["push", "things", "history", "signIn", "live"];

export interface SoakMinute {
  minute: number;
  rssMb: number;
  /** p99 over every timed request of the minute (live deliveries excluded: they are not requests). */
  p99Ms: number;
  requests: number;
  /** Per kind: count, p50, p99; `live` is push sent -> seen by a ShapeStream subscriber. */
  kinds: Record<Kind, { n: number; p50Ms: number; p99Ms: number }>;
  errors: number;
  errorKinds: Record<string, number>;
  rateLimited: number;
  skipped: number;
  serverCpuPct: number;
  postgresCpuPct: number;
  /** The machine's 1-minute load average at the minute's end (other work on the shared cores). */
  loadAvg: number;
}

export interface SoakResult {
  minutes: number;
  warmUpMinutesSkipped: number;
  ratePerSec: Record<Exclude<Kind, "live">, number>;
  subscribers: number;
  longPolls: number;
  rssSlopeMbPerMin: number;
  p99SlopeMsPerMin: number;
  rss: Fit;
  p99: Fit;
  /** p99 slope per kind, ms per minute. */
  kindP99SlopeMsPerMin: Record<Kind, number>;
  series: SoakMinute[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function benchSoak(minutes = Number(process.env.BENCH_SOAK_MINUTES ?? 10)): Promise<SoakResult> {
  const db = await benchDatabase();
  const svc = await benchService(db.url);
  const dbName = new URL(db.url).pathname.slice(1);
  const streams: ShapeStream<Row>[] = [];
  const stopped = new AbortController();
  const timers: NodeJS.Timeout[] = [];
  try {
    const owner = await signedIn(svc.url, "Soak Owner");
    const ids = await seedThings(db.url, owner.locationId, SEEDED, owner.userId);
    // Every device is a session of the owner, signed in from its own address, writing its own things.
    const devices = await Promise.all(
      Array.from({ length: DEVICES }, async (_, d) => ({
        cookie: (await signIn(svc.url, owner.email, owner.password)).cookie,
        clientId: `soak-device-${d}`,
        marker: ids[d]!,
        things: ids.slice(DEVICES + d * 200, DEVICES + (d + 1) * 200),
        seq: 0,
      })),
    );
    // Accounts the sign-ins take turns on.
    const accounts = await Promise.all([1, 2, 3].map((i) => signedIn(svc.url, `Soak Visitor ${i}`)));

    let current = freshMinute();
    const pushedAt = new Map<string, number>(); // marker name -> when its push was sent
    const inFlight: Record<string, number> = {};
    const timed = async (kind: Exclude<Kind, "live">, fn: () => Promise<Response>) => {
      if ((inFlight[kind] ?? 0) >= MAX_IN_FLIGHT) return void current.skipped++;
      inFlight[kind] = (inFlight[kind] ?? 0) + 1;
      const bucket = current;
      const t0 = performance.now();
      try {
        const res = await fn();
        await res.arrayBuffer();
        if (res.status === 429) bucket.rateLimited++;
        else if (res.status >= 400) failed(bucket, `${kind} ${res.status}`);
        else bucket.samples[kind].push(performance.now() - t0);
      } catch (err) {
        failed(bucket, `${kind} ${(err as Error).name}`);
      } finally {
        inFlight[kind]--;
      }
    };
    const json = (cookie: string) => ({ cookie, origin: svc.url, "content-type": "application/json" });

    let device = 0;
    const push = () => {
      const d = devices[device++ % DEVICES]!;
      const name = `${d.clientId} ${++d.seq}`;
      const at = new Date().toISOString();
      const ops = [
        { id: uuidv7(), name: "thing.update", locationId: owner.locationId, args: { id: d.marker, patch: { name } }, at },
        ...Array.from({ length: OPS_PER_PUSH - 1 }, () => ({
          id: uuidv7(),
          name: "thing.update",
          locationId: owner.locationId,
          args: { id: d.things[Math.floor(Math.random() * d.things.length)]!, patch: { name: `${name} ${Math.random().toString(36).slice(2, 8)}` } },
          at,
        })),
      ];
      return timed("push", () => {
        // Timed from the send: a subscriber may see the change before the pusher has its answer.
        pushedAt.set(name, performance.now());
        return fetch(`${svc.url}/api/v1/sync/push`, {
          method: "POST",
          headers: json(d.cookie),
          body: JSON.stringify({ clientId: d.clientId, protocol: PROTOCOL, ops }),
        });
      });
    };
    const things = () => timed("things", () => fetch(`${svc.url}/api/v1/locations/${owner.locationId}/things?limit=50`, { headers: { cookie: owner.cookie } }));
    const history = () => {
      const d = devices[Math.floor(Math.random() * DEVICES)]!;
      const id = d.things[Math.floor(Math.random() * d.things.length)]!;
      return timed("history", () => fetch(`${svc.url}/api/v1/things/${id}/history`, { headers: { cookie: owner.cookie } }));
    };
    let visitor = 0;
    const signInOnce = () =>
      timed("signIn", async () => {
        const a = accounts[visitor++ % accounts.length]!;
        const { res, cookie } = await signIn(svc.url, a.email, a.password);
        if (!res.ok) return res;
        // A device that signs in reads who it is, then signs out again (sessions do not pile up).
        await (await fetch(`${svc.url}/api/v1/me`, { headers: { cookie } })).arrayBuffer();
        await (await fetch(`${svc.url}/api/v1/auth/sign-out`, { method: "POST", headers: json(cookie), body: "{}" })).arrayBuffer();
        return res;
      });

    // Live subscribers: real clients (their deliveries timed), and bare long-polls kept open from
    // where the first client stands once it is up to date (no snapshot of their own).
    let upToDate!: () => void;
    const firstUpToDate = new Promise<void>((r) => (upToDate = r));
    for (let i = 0; i < SUBSCRIBERS; i++) {
      // A signal of its own: the client links each of its requests to the one it is given.
      const own = new AbortController();
      stopped.signal.addEventListener("abort", () => own.abort(), { once: true });
      const s = new ShapeStream<Row>({ url: `${svc.url}/api/v1/sync/shape/things`, headers: { cookie: owner.cookie }, signal: own.signal });
      s.subscribe((messages: Message<Row>[]) => {
        const now = performance.now();
        for (const m of messages) {
          if ("headers" in m && m.headers.control === "up-to-date") upToDate();
          if (!("value" in m) || typeof m.value.name !== "string") continue;
          const at = pushedAt.get(m.value.name);
          if (at !== undefined) current.samples.live.push(now - at);
        }
      });
      streams.push(s);
    }
    await firstUpToDate;
    const from = () => ({ offset: streams[0]!.lastOffset, handle: streams[0]!.shapeHandle! });
    const longPolls = Array.from({ length: LONG_POLLS }, () =>
      longPoll(svc.url, owner.cookie, from, stopped.signal, (why) => failed(current, `longPoll ${why}`)),
    );

    const schedule = (every: number, fn: () => unknown) => timers.push(setInterval(fn, every));
    schedule(EVERY.push / DEVICES, push);
    schedule(EVERY.things, things);
    schedule(EVERY.history, history);
    schedule(EVERY.signIn, signInOnce);

    const series: SoakMinute[] = [];
    for (let minute = 1; minute <= minutes; minute++) {
      const cpu0 = cpuMs(svc.pid);
      const pg0 = postgresCpuMs(dbName);
      const t0 = performance.now();
      await sleep(60_000);
      const m = current;
      current = freshMinute();
      const elapsed = performance.now() - t0;
      // Markers older than the minute are no longer awaited: the map stays bounded here too.
      const horizon = performance.now() - 30_000;
      for (const [k, at] of pushedAt) if (at < horizon) pushedAt.delete(k);
      const requests = KINDS.filter((k) => k !== "live").flatMap((k) => m.samples[k]);
      series.push({
        minute,
        rssMb: rssMb(svc.pid),
        p99Ms: percentile(requests, 99),
        requests: requests.length,
        kinds: Object.fromEntries(KINDS.map((k) => [k, summary(m.samples[k])])) as SoakMinute["kinds"],
        errors: m.errors,
        errorKinds: m.errorKinds,
        rateLimited: m.rateLimited,
        skipped: m.skipped,
        serverCpuPct: ((cpuMs(svc.pid) - cpu0) / elapsed) * 100,
        postgresCpuPct: ((postgresCpuMs(dbName) - pg0) / elapsed) * 100,
        loadAvg: loadavg()[0]!,
      });
      const last = series.at(-1)!;
      console.log(
        `soak minute ${minute}: RSS ${last.rssMb.toFixed(1)} MB, p99 ${last.p99Ms.toFixed(1)} ms over ${last.requests} requests ` +
          `(${KINDS.map((k) => `${k} ${last.kinds[k].p99Ms.toFixed(0)}`).join(", ")}), errors ${last.errors}, 429 ${last.rateLimited}, ` +
          `${JSON.stringify(last.errorKinds)}, skipped ${last.skipped}, server CPU ${last.serverCpuPct.toFixed(0)}%, PostgreSQL ${last.postgresCpuPct.toFixed(0)}%, load ${last.loadAvg.toFixed(1)}`,
      );
    }
    for (const t of timers) clearInterval(t);
    stopped.abort();
    await Promise.allSettled(longPolls);

    const steady = series.slice(1);
    const rss = fitLine(steady.map((m) => [m.minute, m.rssMb]));
    const p99 = fitLine(steady.map((m) => [m.minute, m.p99Ms]));
    return {
      minutes,
      warmUpMinutesSkipped: 1,
      ratePerSec: { push: 1000 / EVERY.push, things: 1000 / EVERY.things, history: 1000 / EVERY.history, signIn: 1000 / EVERY.signIn },
      subscribers: SUBSCRIBERS,
      longPolls: LONG_POLLS,
      rssSlopeMbPerMin: rss.slope,
      p99SlopeMsPerMin: p99.slope,
      rss,
      p99,
      kindP99SlopeMsPerMin: Object.fromEntries(KINDS.map((k) => [k, fitLine(steady.map((m) => [m.minute, m.kinds[k].p99Ms])).slope])) as Record<Kind, number>,
      series,
    };
  } finally {
    for (const t of timers) clearInterval(t);
    stopped.abort();
    await svc.close();
    await db.drop();
  }
}

interface MinuteBucket {
  samples: Record<Kind, number[]>;
  errors: number;
  /** "kind status" -> count, so a failing kind is named in the report. */
  errorKinds: Record<string, number>;
  rateLimited: number;
  skipped: number;
}

function freshMinute(): MinuteBucket {
  return {
    samples: Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>,
    errors: 0,
    errorKinds: {},
    rateLimited: 0,
    skipped: 0,
  };
}

function failed(bucket: MinuteBucket, why: string) {
  bucket.errors++;
  bucket.errorKinds[why] = (bucket.errorKinds[why] ?? 0) + 1;
}

function summary(xs: number[]) {
  return xs.length ? { n: xs.length, p50Ms: percentile(xs, 50), p99Ms: percentile(xs, 99) } : { n: 0, p50Ms: NaN, p99Ms: NaN };
}

/**
 * A bare long-poll subscriber (what a client without the Electric library does): live requests
 * with the offset and handle each answer sends, starting from `from()`; a 409 starts there again.
 */
async function longPoll(
  url: string,
  cookie: string,
  from: () => { offset: string; handle: string },
  signal: AbortSignal,
  onError: (why: string) => void,
): Promise<void> {
  let { offset, handle } = from();
  while (!signal.aborted) {
    const q = new URLSearchParams({ offset, handle, live: "true" });
    // Each request gets its own signal, linked for its lifetime only: fetch leaves its listener on
    // a signal it was given until garbage collection, so a shared one collected thousands.
    const request = new AbortController();
    const abort = () => request.abort();
    signal.addEventListener("abort", abort, { once: true });
    try {
      const res = await fetch(`${url}/api/v1/sync/shape/things?${q}`, { headers: { cookie }, signal: request.signal });
      await res.arrayBuffer();
      if (res.status === 409) ({ offset, handle } = from());
      else if (res.ok) {
        offset = res.headers.get("electric-offset") ?? offset;
        handle = res.headers.get("electric-handle") ?? handle;
      } else {
        onError(String(res.status));
        await sleep(1000);
      }
    } catch (err) {
      if (!signal.aborted) {
        onError((err as Error).name);
        await sleep(1000);
      }
    } finally {
      signal.removeEventListener("abort", abort);
    }
  }
}
