/**
 * export-memory: peak RSS while exporting a location of 10,000 things with a photo each, to show
 * the zip streams in bounded memory. Not a timed test; run it by hand:
 *
 *   npm run bench:export-memory            (embedded PGlite)
 *   BENCH_DATABASE_URL=postgres://... npm run bench:export-memory   (PostgreSQL; a fresh database is made and dropped)
 *
 * Environment: EXPORT_BENCH_THINGS (default 10000), EXPORT_BENCH_PHOTO_KB (default 16).
 */
import { randomBytes } from "node:crypto";
import pino from "pino";
import { v7 as uuidv7 } from "uuid";
import { rows, sql } from "../../server/db/client.js";
import { exportDirOf, startExportWorker } from "../../server/modules/exports/worker.js";
import { useServerSecret } from "../../server/db/secret-box.js";
import { ownerLocation } from "./owner-location.js";

const THINGS = Number(process.env.EXPORT_BENCH_THINGS ?? 10_000);
const PHOTO_BYTES = Number(process.env.EXPORT_BENCH_PHOTO_KB ?? 16) * 1024;
const mb = (b: number) => Math.round(b / 1024 / 1024);

useServerSecret("bench-secret-bench-secret-bench-secret-01");
const { database, store, dataDir, userId, locationId, close } = await ownerLocation("svc-export-bench-");
const { db } = database;

// Photos: distinct bytes each (a JPEG header, then noise that does not compress), in the blob store.
console.log(`seeding ${THINGS} things with a ${PHOTO_BYTES / 1024} KB photo each...`);
for (let start = 0; start < THINGS; start += 500) {
  const batch: { f: string; s: string }[] = [];
  for (let i = start; i < Math.min(THINGS, start + 500); i++) {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(PHOTO_BYTES - 4)]);
    batch.push({ f: uuidv7(), s: await store.put(bytes) });
  }
  await db.execute(
    sql`INSERT INTO files (id, location_id, sha256, size, mime) SELECT v.f, ${locationId}, v.s, ${PHOTO_BYTES}, 'image/jpeg'
        FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS v(f uuid, s text)`,
  );
  await db.execute(
    sql`INSERT INTO things (id, location_id, place_id, type_id, name, cover_file_id, fields)
        SELECT gen_random_uuid(), ${locationId}, (SELECT id FROM places WHERE location_id = ${locationId} AND is_unplaced),
          (SELECT t.id FROM types t JOIN locations l ON l.account_id = t.account_id WHERE l.id = ${locationId} AND t.builtin_key = 'thing'),
          'Thing ' || v.f, v.f, jsonb_build_object('note', repeat('x', 200))
        FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS v(f uuid)`,
  );
}

const exportId = uuidv7();
await db.execute(
  sql`INSERT INTO exports (id, account_id, location_id, scope, requested_by, options)
      SELECT ${exportId}, account_id, id, 'location', ${userId}, '{"ended":false,"trashed":false,"history":false,"aiCalls":false,"readable":true,"pdf":false,"locale":"en","digits":"western"}'::jsonb
      FROM locations WHERE id = ${locationId}`,
);
global.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const t0 = Date.now();
const worker = startExportWorker({ db, store, dir: exportDirOf(dataDir), logger: pino({ level: "warn" }), origin: "http://localhost:8080" }, { timer: false });
await worker.drain();
clearInterval(sampler);
const [row] = await rows<{ status: string; bytes: string; progress_total: number }>(
  db,
  sql`SELECT status, bytes, progress_total FROM exports WHERE id = ${exportId}`,
);
console.log(
  JSON.stringify({
    database: database.kind,
    things: THINGS,
    photoKb: PHOTO_BYTES / 1024,
    status: row!.status,
    zipMb: mb(Number(row!.bytes)),
    records: row!.progress_total,
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    rssBeforeMb: mb(before),
    peakRssMb: mb(peak),
    peakGrowthMb: mb(peak - before),
  }),
);
await worker.stop();
await close();
