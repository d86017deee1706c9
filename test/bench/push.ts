/**
 * push: ops applied per second through the real API (session, validation, authorization, history,
 * change log, idempotency record) with 1000-op batches from two devices at once, beside the same
 * row changes done as one set-based SQL statement per 1000 ops on the same PostgreSQL. Then one-op
 * REST creates (10 connections) beside the least a create needs, on the same database in the same
 * run: one transaction inserting the thing and its history row (the change-log triggers fire),
 * from 10 pg connections. Server and PostgreSQL CPU (from /proc) per 1000 ops and per write show
 * where the time goes even when other work shares the machine.
 */
import autocannon from "autocannon";
import pg from "pg";
import { v7 as uuidv7 } from "uuid";
import { PROTOCOL } from "../../sync/protocol.js";
import { benchDatabase, benchService, cpuMs, postgresCpuMs, seedThings, signedIn, stat, type Stat } from "./support.js";

const THINGS = 20_000;
const BATCH = 1000;
const RUNS = 5;

export interface PushResult {
  apiOpsPerSec: Stat;
  rawSqlOpsPerSec: Stat;
  ratioToRawSql: number;
  restOneOpWritesPerSec: Stat;
  rawOneOpTxPerSec: Stat;
  restRatioToRawOneOp: number;
  /** CPU (ms) per 1000 pushed ops and per one-op write: the server process and PostgreSQL's backends. */
  cpu: {
    pushServerMsPer1000: number;
    pushPostgresMsPer1000: number;
    rawPostgresMsPer1000: number;
    restServerMsPerWrite: number;
    restPostgresMsPerWrite: number;
    rawPostgresMsPerTx: number;
  };
}

const REST_SECONDS = 4;
const CONNECTIONS = 10;

/** CPU used by the server and by PostgreSQL while `fn` runs. */
async function cpuOf(pid: number | null, dbName: string, fn: () => Promise<void>): Promise<{ server: number; postgres: number }> {
  const s0 = pid ? cpuMs(pid) : 0;
  const p0 = postgresCpuMs(dbName);
  await fn();
  return { server: pid ? cpuMs(pid) - s0 : 0, postgres: postgresCpuMs(dbName) - p0 };
}

const chunk = <T>(xs: T[], n: number) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

export async function benchPush(): Promise<PushResult> {
  const db = await benchDatabase();
  const svc = await benchService(db.url);
  // The service migrated the database on start.
  const raw = new pg.Client({ connectionString: db.url });
  const raw2 = new pg.Client({ connectionString: db.url });
  await raw.connect();
  await raw2.connect();
  const dbName = new URL(db.url).pathname.slice(1);
  const oneOp = Array.from({ length: CONNECTIONS }, () => new pg.Client({ connectionString: db.url }));
  await Promise.all(oneOp.map((c) => c.connect()));
  try {
    const owner = await signedIn(svc.url, "Bench Owner");
    const deviceB = await signedIn(svc.url, "Bench Owner Two");
    // Device B is an admin of the owner's location, so both write to the same things table.
    await raw.query(`INSERT INTO memberships (id, location_id, user_id, role) VALUES ($1, $2, $3, 'admin')`, [uuidv7(), owner.locationId, deviceB.userId]);
    const ids = await seedThings(db.url, owner.locationId, THINGS, owner.userId);
    const version = new Map(ids.map((id) => [id, 1]));
    const [half1, half2] = [ids.slice(0, THINGS / 2), ids.slice(THINGS / 2)];

    const pushAll = async (cookie: string, things: string[], run: number) => {
      for (const batch of chunk(things, BATCH)) {
        const ops = batch.map((id) => ({
          id: uuidv7(),
          name: "thing.update",
          locationId: owner.locationId,
          args: { id, patch: { name: `Run ${run} ${id.slice(0, 8)}` } },
          baseVersion: version.get(id),
          at: new Date().toISOString(),
        }));
        const res = await fetch(`${svc.url}/api/v1/sync/push`, {
          method: "POST",
          headers: { cookie, origin: svc.url, "content-type": "application/json" },
          body: JSON.stringify({ clientId: cookie.slice(-8), protocol: PROTOCOL, ops }),
        });
        const body = (await res.json()) as { results: { status: string }[] };
        if (res.status !== 200 || body.results.some((r) => r.status !== "applied"))
          throw new Error(`push failed: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
        for (const id of batch) version.set(id, version.get(id)! + 1);
      }
    };
    const api: number[] = [];
    const pushCpu = await cpuOf(svc.pid, dbName, async () => {
      for (let run = 0; run < RUNS; run++) {
        const t0 = performance.now();
        await Promise.all([pushAll(owner.cookie, half1.slice(0, 4000), run), pushAll(deviceB.cookie, half2.slice(0, 4000), run)]);
        api.push(8000 / ((performance.now() - t0) / 1000));
      }
    });

    // The same row changes as one statement per 1000 ops: rowVersion-checked update + history row.
    const rawBatch = async (client: pg.Client, batch: string[], run: number) => {
      const payload = JSON.stringify(batch.map((id) => ({ id, base: version.get(id), name: `Raw ${run} ${id.slice(0, 8)}` })));
      const { rows } = await client.query<{ n: number }>(
        `WITH o AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS o(id uuid, base int, name text)),
              upd AS (UPDATE things t SET name = o.name, row_version = t.row_version + 1, updated_at = now()
                      FROM o WHERE t.id = o.id AND t.row_version = o.base RETURNING t.id, t.location_id, t.row_version, o.name),
              h AS (INSERT INTO history_entries (id, location_id, entity_type, entity_id, action, actor_type, actor_user_id, diff, summary_key, row_version_after)
                    SELECT gen_random_uuid(), upd.location_id, 'thing', upd.id, 'thing.updated', 'user', $2, '{"name":{"class":"plain","changed":true,"hidden":false}}', 'thing.updated', upd.row_version FROM upd)
         SELECT count(*)::int AS n FROM upd`,
        [payload, owner.userId],
      );
      if (rows[0]!.n !== batch.length) throw new Error("raw batch lost rows");
      for (const id of batch) version.set(id, version.get(id)! + 1);
    };
    const rawRates: number[] = [];
    const rawCpu = await cpuOf(null, dbName, async () => {
      for (let run = 0; run < RUNS; run++) {
        const t0 = performance.now();
        await Promise.all([
          (async () => {
            for (const b of chunk(half1.slice(0, 4000), BATCH)) await rawBatch(raw, b, run);
          })(),
          (async () => {
            for (const b of chunk(half2.slice(0, 4000), BATCH)) await rawBatch(raw2, b, run);
          })(),
        ]);
        rawRates.push(8000 / ((performance.now() - t0) / 1000));
      }
    });

    // One-op REST writes: each request creates one thing (a batch of one through the same path).
    // Beside it, in turns with it, the least a create needs: one transaction (one statement) that
    // inserts the thing and its history row, from 10 connections.
    const place = (await raw.query<{ place_id: string; type_id: string }>(`SELECT place_id, type_id FROM things WHERE id = $1`, [ids[0]])).rows[0]!;
    const rawOneOp = async (client: pg.Client) => {
      const { rowCount } = await client.query({
        name: "raw_one_op",
        text: `WITH t AS (INSERT INTO things (id, location_id, place_id, type_id, name, created_by) VALUES (gen_random_uuid(), $1, $2, $3, 'Raw write', $4)
                          RETURNING id, location_id, row_version)
               INSERT INTO history_entries (id, location_id, entity_type, entity_id, entity_name, action, actor_type, actor_user_id, diff, summary_key, summary_params, row_version_after)
               SELECT gen_random_uuid(), t.location_id, 'thing', t.id, 'Raw write', 'thing.created', 'user', $4,
                      '{"name":{"class":"plain","before":null,"after":"Raw write"}}', 'thing.created', '{"name":"Raw write"}', t.row_version FROM t`,
        values: [owner.locationId, place.place_id, place.type_id, owner.userId],
      });
      if (rowCount !== 1) throw new Error("raw one-op write lost its history row");
    };
    const rest: number[] = [];
    const rawOneOpRates: number[] = [];
    let restWrites = 0;
    let rawTxs = 0;
    const restCpu = { server: 0, postgres: 0 };
    const rawOneOpCpu = { server: 0, postgres: 0 };
    for (let run = 0; run < 3; run++) {
      let r: autocannon.Result | undefined;
      const c = await cpuOf(svc.pid, dbName, async () => {
        r = await autocannon({
          url: `${svc.url}/api/v1/locations/${owner.locationId}/things`,
          method: "POST",
          connections: CONNECTIONS,
          duration: REST_SECONDS,
          headers: { cookie: owner.cookie, origin: svc.url, "content-type": "application/json" },
          body: JSON.stringify({ name: "REST write" }),
        });
      });
      if (r!.non2xx) throw new Error(`REST writes failed: ${r!.non2xx} non-2xx`);
      rest.push(r!.requests.average);
      restWrites += r!.requests.total;
      restCpu.server += c.server;
      restCpu.postgres += c.postgres;
      let done = 0;
      const t0 = performance.now();
      const until = t0 + REST_SECONDS * 1000;
      const rc = await cpuOf(null, dbName, async () => {
        await Promise.all(
          oneOp.map(async (client) => {
            while (performance.now() < until) {
              await rawOneOp(client);
              done++;
            }
          }),
        );
      });
      rawOneOpRates.push(done / ((performance.now() - t0) / 1000));
      rawTxs += done;
      rawOneOpCpu.postgres += rc.postgres;
    }
    const apiStat = stat(api);
    const rawStat = stat(rawRates);
    const restStat = stat(rest);
    const rawOneOpStat = stat(rawOneOpRates);
    return {
      apiOpsPerSec: apiStat,
      rawSqlOpsPerSec: rawStat,
      ratioToRawSql: apiStat.median / rawStat.median,
      restOneOpWritesPerSec: restStat,
      rawOneOpTxPerSec: rawOneOpStat,
      restRatioToRawOneOp: restStat.median / rawOneOpStat.median,
      cpu: {
        pushServerMsPer1000: (pushCpu.server / (RUNS * 8000)) * 1000,
        pushPostgresMsPer1000: (pushCpu.postgres / (RUNS * 8000)) * 1000,
        rawPostgresMsPer1000: (rawCpu.postgres / (RUNS * 8000)) * 1000,
        restServerMsPerWrite: restCpu.server / restWrites,
        restPostgresMsPerWrite: restCpu.postgres / restWrites,
        rawPostgresMsPerTx: rawOneOpCpu.postgres / rawTxs,
      },
    };
  } finally {
    await raw.end();
    await raw2.end();
    await Promise.all(oneOp.map((c) => c.end()));
    await svc.close();
    await db.drop();
  }
}
