/**
 * report-memory: peak RSS and time while building the inventory report PDF of a location whose
 * things each have a cover photo, with photos and QR codes, as the report worker does (the whole
 * PDF is made in memory by Typst). Not a timed test; run it by hand:
 *
 *   npm run bench:report-memory            (embedded PGlite)
 *   BENCH_DATABASE_URL=postgres://... npm run bench:report-memory   (PostgreSQL; a fresh database is made and dropped)
 *
 * Environment: REPORT_BENCH_THINGS (default 2000), REPORT_BENCH_PHOTO_PX (default 1200, the photo's side).
 */
import sharp from "sharp";
import { v7 as uuidv7 } from "uuid";
import { sql } from "../../server/db/client.js";
import { withActor } from "../../server/db/actor.js";
import { reportData } from "../../server/modules/reports/data.js";
import { reportPdf } from "../../server/modules/reports/pdf.js";
import { requesterOf } from "../../server/modules/reports/requester.js";
import type { ReportParams } from "../../shared/reports.js";
import { ownerLocation } from "./owner-location.js";

const THINGS = Number(process.env.REPORT_BENCH_THINGS ?? 2000);
const SIDE = Number(process.env.REPORT_BENCH_PHOTO_PX ?? 1200);
const mb = (b: number) => Math.round(b / 1024 / 1024);

const { database, store, userId, locationId, close } = await ownerLocation("svc-report-bench-");
const { db } = database;

// Distinct photos (each a different colour), so every thumbnail is made.
console.log(`seeding ${THINGS} things with a ${SIDE}x${SIDE} JPEG each...`);
for (let start = 0; start < THINGS; start += 200) {
  const batch: { f: string; s: string; n: number }[] = [];
  for (let i = start; i < Math.min(THINGS, start + 200); i++) {
    const jpeg = await sharp({ create: { width: SIDE, height: SIDE, channels: 3, background: { r: i % 256, g: (i * 7) % 256, b: (i * 13) % 256 } } })
      .jpeg()
      .toBuffer();
    batch.push({ f: uuidv7(), s: await store.put(jpeg), n: jpeg.length });
  }
  await db.execute(
    sql`INSERT INTO files (id, location_id, sha256, size, mime) SELECT v.f, ${locationId}, v.s, v.n, 'image/jpeg'
        FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS v(f uuid, s text, n int)`,
  );
  await db.execute(
    sql`INSERT INTO things (id, location_id, place_id, type_id, name, cover_file_id)
        SELECT gen_random_uuid(), ${locationId}, (SELECT id FROM places WHERE location_id = ${locationId} AND is_unplaced),
          (SELECT t.id FROM types t JOIN locations l ON l.account_id = t.account_id WHERE l.id = ${locationId} AND t.builtin_key = 'thing'),
          'Thing ' || v.f, v.f
        FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS v(f uuid)`,
  );
}

const params: ReportParams = { filters: {}, include: { photos: true, qr: true, money: true }, locale: "en", digits: "western", email: false };
global.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
const t0 = Date.now();
const { actor } = await requesterOf(db, userId);
const data = await withActor(db, actor, (tx) => reportData(tx, locationId, params));
const pdf = await reportPdf(data, params, { store, origin: "http://localhost:8080", now: new Date() });
clearInterval(sampler);
console.log(
  JSON.stringify({
    database: database.kind,
    things: THINGS,
    photoPx: SIDE,
    pdfMb: Math.round((pdf.length / 1024 / 1024) * 10) / 10,
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    rssBeforeMb: mb(before),
    peakRssMb: mb(peak),
    peakGrowthMb: mb(peak - before),
  }),
);
await close();
