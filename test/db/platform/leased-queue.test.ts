/**
 * The shared leased queue (server/jobs/leased-queue.ts) and its loop (server/jobs/poll-loop.ts),
 * on a table of their own: a claim holds a row until its lease ends, an expired lease is claimed
 * again with the attempt counted, a row out of attempts is given up, and stopping the loop hands
 * the job in flight back.
 */
import pino from "pino";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { rows, sql, type Database } from "../../../server/db/client.js";
import { claimLeased, extendLease, releaseLeased, type LeasedQueue } from "../../../server/jobs/leased-queue.js";
import { startPollLoop } from "../../../server/jobs/poll-loop.js";
import { freshDatabase } from "../../support/db.js";

let database: Database;
const LEASE_MS = 60_000;

const QUEUE: LeasedQueue = {
  table: "leased_queue_test",
  running: "busy",
  queued: "waiting",
  due: (at) => sql`q.status = 'waiting' AND q.run_after <= ${at}::timestamptz`,
  order: sql`q.run_after, q.id`,
  onClaim: (at) => sql`, claimed_at = ${at}::timestamptz`,
  returning: sql`q.id::text AS id, q.attempt`,
  giveUp: { attempts: 3, status: "gave_up", set: (at) => sql`, error = 'lost', finished_at = ${at}::timestamptz` },
};

interface Job {
  id: string;
  attempt: number;
}
interface Row {
  status: string;
  attempt: number;
  lease: boolean;
  error: string | null;
}

const t0 = new Date("2026-01-01T00:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);
const claim = (now: Date, limit = 10) => claimLeased<Job>(database.db, QUEUE, now, LEASE_MS, limit);
const add = async (runAfter = t0) => {
  const id = uuidv7();
  await database.db.execute(sql`INSERT INTO leased_queue_test (id, run_after) VALUES (${id}, ${runAfter.toISOString()}::timestamptz)`);
  return id;
};
const row = async (id: string) =>
  (await rows<Row>(database.db, sql`SELECT status, attempt, lease_until IS NOT NULL AS lease, error FROM leased_queue_test WHERE id = ${id}`))[0];

beforeAll(async () => {
  database = await freshDatabase();
  await database.db.execute(
    sql`CREATE TABLE leased_queue_test (id uuid PRIMARY KEY, status text NOT NULL DEFAULT 'waiting', run_after timestamptz NOT NULL,
          lease_until timestamptz, attempt integer NOT NULL DEFAULT 0, claimed_at timestamptz, finished_at timestamptz, error text)`,
  );
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await database.db.execute(sql`DELETE FROM leased_queue_test`);
});

describe("claimLeased", () => {
  test("a claimed row is held: claiming again finds nothing while the lease lasts", async () => {
    const id = await add();
    expect(await claim(at(1000))).toEqual([{ id, attempt: 1 }]);
    expect(await row(id)).toEqual({ status: "busy", attempt: 1, lease: true, error: null });
    expect(await claim(at(2000))).toEqual([]);
    // Not due yet, and the limit, are kept too.
    const later = await add(at(10 * LEASE_MS));
    const [a, b] = [await add(), await add()];
    expect((await claim(at(3000), 1)).map((j) => j.id)).toEqual([a]);
    expect((await claim(at(3000), 5)).map((j) => j.id)).toEqual([b]);
    expect(await row(later)).toMatchObject({ status: "waiting", attempt: 0 });
  });

  test("two claims at once never take the same row", async () => {
    const ids = await Promise.all(Array.from({ length: 6 }, () => add()));
    const [x, y] = await Promise.all([claim(at(1000), 4), claim(at(1000), 4)]);
    const taken = [...x, ...y].map((j) => j.id);
    expect(new Set(taken).size).toBe(taken.length);
    expect(taken.sort()).toEqual([...ids].sort());
  });

  test("a row whose lease ran out is claimed again, its attempt counted", async () => {
    const id = await add();
    await claim(at(0));
    expect(await claim(at(LEASE_MS - 1))).toEqual([]);
    expect(await claim(at(LEASE_MS + 1))).toEqual([{ id, attempt: 2 }]);
    // The queue's own assignments are made on every claim.
    const [claimed] = await rows<{ now: boolean }>(
      database.db,
      sql`SELECT claimed_at = ${at(LEASE_MS + 1).toISOString()}::timestamptz AS now FROM leased_queue_test WHERE id = ${id}`,
    );
    expect(claimed).toEqual({ now: true });
  });

  test("a row that used up its attempts is given up instead of claimed again", async () => {
    const id = await add();
    for (let n = 0; n < 3; n++) expect(await claim(at(n * 2 * LEASE_MS))).toEqual([{ id, attempt: n + 1 }]);
    expect(await claim(at(7 * LEASE_MS))).toEqual([]);
    expect(await row(id)).toEqual({ status: "gave_up", attempt: 3, lease: false, error: "lost" });
  });
});

describe("extendLease and releaseLeased", () => {
  test("a held row's lease is extended; a released row is due again with its attempt given back", async () => {
    const id = await add();
    await claim(new Date());
    expect(await extendLease(database.db, QUEUE, id, LEASE_MS, sql`, error = 'beat'`)).toBe(true);
    expect(await row(id)).toMatchObject({ status: "busy", error: "beat" });
    await releaseLeased(database.db, QUEUE, [id]);
    expect(await row(id)).toEqual({ status: "waiting", attempt: 0, lease: false, error: "beat" });
    // No longer held: the heartbeat says so.
    expect(await extendLease(database.db, QUEUE, id, LEASE_MS)).toBe(false);
    expect(await claim(new Date())).toEqual([{ id, attempt: 1 }]);
  });
});

describe("startPollLoop", () => {
  const logger = pino({ level: "silent" });

  test("rounds run until nothing is due, at most `concurrency` at once; stop hands the job in flight back", async () => {
    const ids = [await add(), await add(), await add()];
    const done: string[] = [];
    let running = 0;
    let most = 0;
    let started!: () => void;
    const holding = new Promise<void>((resolve) => (started = resolve));
    const loop = startPollLoop<Job>({
      claim: (free) => claim(new Date(), free),
      run: async (job, signal) => {
        running++;
        most = Math.max(most, running);
        try {
          if (job.id === ids[2]) {
            // Runs until the loop stops, and leaves its row claimed for stop() to hand back.
            started();
            await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
            return;
          }
          await database.db.execute(sql`UPDATE leased_queue_test SET status = 'done', lease_until = NULL WHERE id = ${job.id}`);
          done.push(job.id);
        } finally {
          running--;
        }
      },
      release: (left) => releaseLeased(database.db, QUEUE, left),
      logger,
      what: "test",
      concurrency: 2,
      pollMs: 10,
      timer: false,
    });
    const drained = loop.drain();
    await holding;
    await loop.stop();
    // Two in the first round, the held one in the second; a stopped loop claims no more.
    expect(await drained).toBe(3);
    expect(most).toBe(2);
    expect(done.sort()).toEqual([ids[0]!, ids[1]!].sort());
    expect(await row(ids[2]!)).toEqual({ status: "waiting", attempt: 0, lease: false, error: null });
    expect(await loop.drain()).toBe(0);
  });

  test("a job that throws: reported to `failed` and left claimed, or without it, fails the round", async () => {
    const id = await add();
    const failed: string[] = [];
    const base = {
      claim: (free: number) => claim(new Date(), free),
      run: async () => {
        throw new Error("boom");
      },
      logger,
      what: "test",
      pollMs: 10,
      timer: false,
    };
    const kept = startPollLoop<Job>({ ...base, failed: (_err, job) => failed.push(job.id) });
    expect(await kept.drain()).toBe(1);
    expect(failed).toEqual([id]);
    expect(await row(id)).toMatchObject({ status: "busy", lease: true });
    await kept.stop();
    await releaseLeased(database.db, QUEUE, [id]);
    const strict = startPollLoop<Job>(base);
    await expect(strict.drain()).rejects.toThrow("boom");
    await strict.stop();
  });
});
