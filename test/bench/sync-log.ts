/**
 * syncLog: the change log under steady writes (sync/SPEC.md SH10). THINGS things, each updated
 * UPDATES times through the real push API of the real server on PostgreSQL, then the compaction
 * job's own function run on that database: the log's rows before and after, and the run's time
 * with the PostgreSQL CPU it took.
 */
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { openDatabase } from "../../server/db/client.js";
import { compactSyncLog } from "../../server/sync/compaction.js";
import { PROTOCOL } from "../../sync/protocol.js";
import { benchDatabase, benchService, postgresCpuMs, seedThings, signedIn } from "./support.js";

const THINGS = 1000;
const UPDATES = 20;
/** As the server's default retention (SVC_SYNC_TOMBSTONE_DAYS). */
const RETENTION_MS = 30 * 86_400_000;

export interface SyncLogResult {
  things: number;
  /** Changes pushed (things x updates). */
  changes: number;
  /** Log rows after the writes, before compaction. */
  rowsBeforeCompaction: number;
  /** Log rows once the job ran. */
  rowsAfterSteadyWrites: number;
  /** Wall time of the job's run, ms (batches included). */
  compactionMs: number;
  /** CPU the PostgreSQL backends of this database used during the run, ms. */
  compactionPostgresCpuMs: number;
  supersededRemoved: number;
  batches: number;
  /** A second run right after: what an idle run costs, ms. */
  idleRunMs: number;
}

export async function benchSyncLog(): Promise<SyncLogResult> {
  const db = await benchDatabase();
  const svc = await benchService(db.url);
  const raw = new pg.Client({ connectionString: db.url });
  await raw.connect();
  const database = await openDatabase({ databaseUrl: db.url, poolSize: 2 });
  try {
    const owner = await signedIn(svc.url, "Bench Owner");
    const ids = await seedThings(db.url, owner.locationId, THINGS, owner.userId);
    // Steady writes: every thing renamed once per round, one 1000-op batch per round.
    for (let round = 0; round < UPDATES; round++) {
      const ops = ids.map((id) => ({
        id: uuidv7(),
        name: "thing.update",
        locationId: owner.locationId,
        args: { id, patch: { name: `Round ${round} ${id.slice(0, 8)}` } },
        at: new Date().toISOString(),
      }));
      const res = await fetch(`${svc.url}/api/v1/sync/push`, {
        method: "POST",
        headers: { cookie: owner.cookie, origin: svc.url, "content-type": "application/json" },
        body: JSON.stringify({ clientId: "bench-steady", protocol: PROTOCOL, ops }),
      });
      const body = (await res.json()) as { results: { status: string }[] };
      if (res.status !== 200 || body.results.some((r) => r.status !== "applied"))
        throw new Error(`push failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    }
    const count = async () => Number((await raw.query<{ n: string }>("SELECT count(*)::text AS n FROM sync_log")).rows[0]!.n);
    const before = await count();
    const dbName = new URL(db.url).pathname.slice(1);
    const cpu0 = postgresCpuMs(dbName);
    const t0 = performance.now();
    const run = await compactSyncLog(database.db, { tombstoneMaxAgeMs: RETENTION_MS });
    const compactionMs = performance.now() - t0;
    const compactionPostgresCpuMs = postgresCpuMs(dbName) - cpu0;
    if (run.skipped) throw new Error("compaction stepped aside: the server's own job was running");
    const t1 = performance.now();
    await compactSyncLog(database.db, { tombstoneMaxAgeMs: RETENTION_MS });
    const idleRunMs = performance.now() - t1;
    return {
      things: THINGS,
      changes: THINGS * UPDATES,
      rowsBeforeCompaction: before,
      rowsAfterSteadyWrites: await count(),
      compactionMs,
      compactionPostgresCpuMs,
      supersededRemoved: run.superseded,
      batches: run.batches,
      idleRunMs,
    };
  } finally {
    await database.close();
    await raw.end();
    await svc.close();
    await db.drop();
  }
}
