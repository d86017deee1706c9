/**
 * kill -9 while devices push (sync/SPEC.md PU5, PU6): the real server process (server/main.ts) on
 * an embedded PGlite in a fresh data directory, or on a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set. Several devices push their outboxes of 1000-op batches; the process is
 * killed with SIGKILL a few times (at random moments, and right as an answer leaves, so a batch
 * that committed never reaches its device) and started again on the same data; each device pushes
 * again every batch it got no answer for, with the same op ids, as its outbox would. In the end
 * every op took effect exactly once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Ledger, NoAnswer, landed, planOutbox, pushBody, seeded, send, signedInDevice, sleep, type Device, type Query } from "../support/device-load.js";
import { emptyDatabase } from "../support/pg-database.js";
import { serverProcess, type ServerProcess } from "../support/server-process.js";

const adminUrl = process.env.TEST_DATABASE_URL;
const mode = adminUrl ? "PostgreSQL" : "PGlite";
let empty: Awaited<ReturnType<typeof emptyDatabase>> | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-kill-"));
const DEVICES = 3;
const BATCHES = Number(process.env.KILL_TEST_BATCHES ?? 4);
const BATCH_OPS = 1000;
const KILLS = 4;
const seed = Number(process.env.KILL_TEST_SEED ?? Date.now() % 1e9);
const random = seeded(seed);

let server: ServerProcess;
let databaseUrl: string | undefined;
const devices: Device[] = [];

beforeAll(async () => {
  if (adminUrl) {
    empty = await emptyDatabase(adminUrl, "svc_kill");
    databaseUrl = empty.url;
  }
  server = await serverProcess({ dataDir, ...(databaseUrl ? { databaseUrl } : {}) });
  await server.start();
  for (let i = 1; i <= DEVICES; i++) {
    const device = await signedInDevice(server.origin, `Device ${i}`);
    planOutbox(device, BATCHES, BATCH_OPS, random);
    devices.push(device);
  }
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  await empty?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs `read` on the server's database: PostgreSQL while it runs, PGlite's data directory once the server has stopped. */
async function onDatabase<T>(read: (query: Query) => Promise<T>): Promise<T> {
  if (databaseUrl) {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      return await read(async (text, params) => (await c.query(text, params)).rows as Record<string, unknown>[]);
    } finally {
      await c.end();
    }
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(path.join(dataDir, "pg"));
  try {
    return await read(async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows);
  } finally {
    await db.close();
  }
}

test(`PU5 PU6 kill -9 during pushes on ${mode}, restart, push again: every op applied exactly once, every replay of an applied op answered duplicate`, async () => {
  const ledger = new Ledger();
  const totalBatches = DEVICES * BATCHES;
  let answered = 0;
  let inFlight = 0;
  const kills: string[] = [];
  /** Resolves while the server listens; replaced by the restart at each kill. */
  let up: Promise<void> = Promise.resolve();
  /** Set when the next answer that leaves the server once `cutAfter` batches have answers is to be its last. */
  let cutNextAnswer: (() => void) | null = null;
  let cutAfter = 0;

  const kill = (how: string) => {
    kills.push(`${how} (${inFlight} pushes in flight)`);
    up = server.stop("SIGKILL").then(() => server.start());
    return up;
  };

  const pushOutbox = async (device: Device) => {
    for (let b = 0; b < device.batches.length; b++) {
      let again = false;
      for (;;) {
        await up;
        inFlight++;
        try {
          const answer = await send(server.origin, "POST", "/api/v1/sync/push", {
            body: pushBody(device, device.batches[b]!),
            cookie: device.cookie,
            address: device.address,
            onHead: (res) => {
              if (!cutNextAnswer || res.statusCode !== 200 || answered < cutAfter) return false;
              // The batch committed and its answer is leaving: the process dies before the device reads it.
              cutNextAnswer();
              cutNextAnswer = null;
              return true;
            },
          });
          if (answer.status === 503) {
            // Overload (more pushes at once than the server takes): wait as told, push the same batch.
            again = true;
            await sleep(Number(answer.headers["retry-after"]) * 1000);
            continue;
          }
          expect(answer.status, answer.body).toBe(200);
          ledger.record(device, b, answer, again);
          answered++;
          break;
        } catch (err) {
          if (!(err instanceof NoAnswer)) throw err;
          // No answer: the outbox keeps the batch and pushes it again once the server is back.
          again = true;
          await sleep(50);
        } finally {
          inFlight--;
        }
      }
    }
  };

  const killer = async () => {
    for (let k = 0; k < KILLS; k++) {
      // Spread over the run: kill k once about (k + 1) / (KILLS + 1) of the batches have answers.
      const threshold = Math.floor((totalBatches * (k + 1)) / (KILLS + 1));
      if (k % 2 === 0) {
        while (answered < threshold) await sleep(20);
        await up;
        await sleep(random() * 400);
        await kill("at a random moment");
      } else {
        // Armed before the threshold is reached: the last batches may all answer within one poll of
        // `answered`, and a cut armed after them would wait for an answer that never comes.
        await up;
        cutAfter = threshold;
        await new Promise<void>((resolve) => (cutNextAnswer = resolve));
        await kill("as an answer left");
      }
    }
  };

  const started = Date.now();
  await Promise.all([...devices.map(pushOutbox), killer()]);
  const pushSeconds = (Date.now() - started) / 1000;
  // A clean stop after all that, then read what landed.
  expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
  const result = await onDatabase((query) => landed(query, devices));
  const told = ledger.summary(devices);

  console.log(
    `kill -9 on ${mode} (seed ${seed}): ${told.ops} ops in ${totalBatches} batches of ${BATCH_OPS} from ${DEVICES} devices in ${pushSeconds.toFixed(1)} s; ` +
      `${kills.length} kills [${kills.join("; ")}]; ${ledger.repushed.duplicate + ledger.repushed.applied} batches pushed again: ` +
      `${ledger.repushed.duplicate} answered duplicate (applied before the kill), ${ledger.repushed.applied} applied (cut before the commit); ` +
      `lost ${result.lost}, doubled ${result.doubled}`,
  );
  expect(kills).toHaveLength(KILLS);
  expect(ledger.problems).toEqual([]);
  expect(result.details.slice(0, 10)).toEqual([]);
  expect({ lost: result.lost, doubled: result.doubled, toldAppliedTwice: told.toldTwice, neverAnswered: told.untold }).toEqual({
    lost: 0,
    doubled: 0,
    toldAppliedTwice: 0,
    neverAnswered: 0,
  });
  // The answer cut as it left belonged to a committed batch: at least one replay met its record.
  expect(ledger.repushed.duplicate).toBeGreaterThanOrEqual(1);
});
