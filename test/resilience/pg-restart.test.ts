/**
 * PostgreSQL restarted under load: a throwaway cluster this file starts (test/support/pg-cluster.ts),
 * the real server process on it, devices pushing and reading. PostgreSQL stops (fast shutdown),
 * stays down 2 s and starts again; the server process is never restarted. While the database is
 * down every request is answered 503 `unavailable` with Retry-After (sync/SPEC.md PU3), never a 500
 * or a dropped connection; nothing that was answered is lost; once the database is back the same
 * process serves again, re-pushed batches land exactly once (PU5, PU6), and a live shape request
 * is woken by a write made after the restart (SH6: the LISTEN connection came back).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  Ledger,
  NoAnswer,
  landed,
  liveThingsPath,
  planOutbox,
  pushBody,
  seeded,
  send,
  signedInDevice,
  sleep,
  type Answer,
  type Device,
} from "../support/device-load.js";
import { clusterToolsMissing, startCluster, type Cluster } from "../support/pg-cluster.js";
import { serverProcess, type ServerProcess } from "../support/server-process.js";

const missing = clusterToolsMissing();
if (missing) console.log(`PostgreSQL restart test SKIPPED: ${missing}`);

const DEVICES = 3;
const BATCHES = 8;
const BATCH_OPS = 250;
const OUTAGE_MS = 2000;

describe.skipIf(missing !== null)("PostgreSQL restarted under load", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-pgrestart-"));
  let cluster: Cluster | undefined;
  let server: ServerProcess | undefined;
  const devices: Device[] = [];

  beforeAll(async () => {
    cluster = await startCluster();
    server = await serverProcess({ dataDir, databaseUrl: cluster.url });
    await server.start();
    const random = seeded(7);
    for (let i = 1; i <= DEVICES; i++) {
      const device = await signedInDevice(server.origin, `Device ${i}`);
      planOutbox(device, BATCHES, BATCH_OPS, random);
      devices.push(device);
    }
  });

  afterAll(async () => {
    try {
      await server?.stop("SIGKILL");
    } finally {
      cluster?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("PU3 PU5 PU6 SH6 requests during the outage answer 503 unavailable with Retry-After, never 500; afterwards the same process serves, re-pushed batches land once and live requests wake", async () => {
    const origin = server!.origin;
    const pid = server!.pid;
    const ledger = new Ledger();
    const statuses = new Map<number, number>();
    const problems: string[] = [];
    const unavailable = { pushes: 0, reads: 0 };
    let answered = 0;
    let pushing = true;
    let outage: { from: number; to: number } | undefined;

    /** Every answer must be one a device can act on: 200, or 503 `unavailable` with Retry-After. */
    const check = (what: string, answer: Answer): "ok" | "unavailable" | "wrong" => {
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status === 200) return "ok";
      const retryAfter = Number(answer.headers["retry-after"]);
      const code = answer.body.startsWith("{") ? (JSON.parse(answer.body) as { error?: { code?: string } }).error?.code : undefined;
      if (answer.status === 503 && code === "unavailable" && retryAfter >= 1) return "unavailable";
      problems.push(`${what}: ${answer.status} retry-after ${String(answer.headers["retry-after"])} ${answer.body.slice(0, 200)}`);
      return "wrong";
    };
    const noAnswer = (what: string, err: unknown) => {
      if (!(err instanceof NoAnswer)) throw err;
      problems.push(`${what}: no answer (${err.message})`);
    };

    const pushOutbox = async (device: Device) => {
      for (let b = 0; b < device.batches.length; b++) {
        let again = false;
        for (;;) {
          let answer: Answer;
          try {
            answer = await send(origin, "POST", "/api/v1/sync/push", {
              body: pushBody(device, device.batches[b]!),
              cookie: device.cookie,
              address: device.address,
            });
          } catch (err) {
            noAnswer(`${device.name} push`, err);
            again = true;
            await sleep(500);
            continue;
          }
          const verdict = check(`${device.name} push`, answer);
          if (verdict === "ok") {
            ledger.record(device, b, answer, again);
            answered++;
            break;
          }
          // The pusher waits out a 503 as told and pushes the same batch again (PU3, PU8).
          if (verdict === "unavailable") unavailable.pushes++;
          again = true;
          await sleep(Number(answer.headers["retry-after"] ?? 1) * 1000);
        }
      }
    };

    const read = async (device: Device) => {
      // Our routes, a shape, and one of the auth library's (reached with a remembered session).
      const paths = [`/api/v1/locations/${device.locationId}/things?limit=20`, "/api/v1/me", `/api/v1/sync/shape/things?offset=-1`, "/api/v1/auth/get-session"];
      for (let i = 0; pushing; i++) {
        const p = paths[i % paths.length]!;
        try {
          if (check(`${device.name} GET ${p}`, await send(origin, "GET", p, { cookie: device.cookie, address: device.address })) === "unavailable")
            unavailable.reads++;
        } catch (err) {
          noAnswer(`${device.name} GET ${p}`, err);
        }
        await sleep(100);
      }
    };

    // A live request waiting when the database goes away ends with an answer, not a hang or a 500.
    const liveDuring = await liveThingsPath(origin, devices[0]!);
    const waitingLive = send(origin, "GET", liveDuring, { cookie: devices[0]!.cookie, address: devices[0]!.address });

    const restart = async () => {
      while (answered < DEVICES * 2) await sleep(20);
      const from = Date.now();
      cluster!.stop("fast");
      await sleep(OUTAGE_MS);
      cluster!.start();
      outage = { from, to: Date.now() };
    };

    const started = Date.now();
    const readers = devices.map(read);
    await Promise.all([...devices.map(pushOutbox), restart()]);
    pushing = false;
    await Promise.all(readers);
    const seconds = (Date.now() - started) / 1000;
    const liveDuringAnswer = await waitingLive.catch((err: unknown) => err);

    // A live request made after the restart is woken by a write made after it, well before its
    // 20 s wait ends: the server listens for commits again.
    const watcher = await signedInDevice(origin, "Watcher");
    const liveAnswer = send(origin, "GET", await liveThingsPath(origin, watcher), { cookie: watcher.cookie, address: watcher.address });
    await sleep(1500);
    const thingId = uuidv7();
    const write = await send(origin, "POST", "/api/v1/sync/push", {
      body: {
        clientId: "watcher",
        protocol: 1,
        ops: [
          {
            id: uuidv7(),
            name: "thing.create",
            locationId: watcher.locationId,
            args: { id: thingId, name: "After the restart" },
            at: new Date().toISOString(),
          },
        ],
      },
      cookie: watcher.cookie,
      address: watcher.address,
    });
    const wroteAt = Date.now();
    expect(write.status, write.body).toBe(200);
    const woken = await Promise.race([liveAnswer, sleep(5000).then(() => null)]);
    const wokenMs = Date.now() - wroteAt;

    const result = await onCluster(cluster!.url, devices);
    const told = ledger.summary(devices);
    console.log(
      `PostgreSQL restart under load: ${told.ops} ops in ${DEVICES * BATCHES} batches of ${BATCH_OPS} from ${DEVICES} devices with ${DEVICES} readers in ${seconds.toFixed(1)} s; ` +
        `database down ${((outage!.to - outage!.from) / 1000).toFixed(1)} s; answers ${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `503 unavailable with Retry-After: ${unavailable.pushes} pushes, ${unavailable.reads} reads; other errors ${problems.length}; ` +
        `${ledger.repushed.duplicate + ledger.repushed.applied} batches pushed again (${ledger.repushed.duplicate} duplicate, ${ledger.repushed.applied} applied); ` +
        `lost ${result.lost}, doubled ${result.doubled}; live request woken ${woken ? `${wokenMs} ms` : "never (5 s)"} after a write made after the restart`,
    );

    expect(problems).toEqual([]);
    expect(server!.pid, "the server process was never restarted").toBe(pid);
    expect(unavailable.pushes + unavailable.reads, "some requests met the outage").toBeGreaterThan(0);
    expect(liveDuringAnswer).toMatchObject({ status: expect.toSatisfy((s: number) => s === 200 || s === 503) });
    expect(ledger.problems).toEqual([]);
    expect(result.details.slice(0, 10)).toEqual([]);
    expect({ lost: result.lost, doubled: result.doubled, toldAppliedTwice: told.toldTwice, neverAnswered: told.untold }).toEqual({
      lost: 0,
      doubled: 0,
      toldAppliedTwice: 0,
      neverAnswered: 0,
    });
    expect(woken, "the live request was not woken by the write").not.toBeNull();
    expect(woken!.status).toBe(200);
    expect(woken!.body).toContain(thingId);
  });

  test("SIGTERM while PostgreSQL is gone still ends cleanly: exit code 0, not the 10 s fallback's 1", async () => {
    cluster!.stop("fast");
    const started = Date.now();
    const exit = await server!.stop("SIGTERM");
    console.log(`SIGTERM with PostgreSQL stopped: exit code ${exit.code} after ${Date.now() - started} ms`);
    cluster!.start();
    expect(exit).toEqual({ code: 0, signal: null });
  });
});

async function onCluster(url: string, devices: Device[]) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await landed(async (text, params) => (await c.query(text, params)).rows as Record<string, unknown>[], devices);
  } finally {
    await c.end();
  }
}
