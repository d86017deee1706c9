/**
 * restore-memory: RSS before, at its peak and after restoring zip bombs (a ~65 KB entry that
 * inflates to `[` + 64 MiB of spaces + `]`, as records/things.json), to show a restore refuses them
 * without keeping memory. Not a timed test; run it by hand:
 *
 *   npx tsx --expose-gc test/bench/restore-memory.ts            (embedded PGlite)
 *   BENCH_DATABASE_URL=postgres://... npx tsx --expose-gc test/bench/restore-memory.ts
 *
 * Environment: RESTORE_BENCH_BOMBS (default 3), RESTORE_BENCH_MIB (default 64).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { v7 as uuidv7 } from "uuid";
import yazl from "yazl";
import { userActor } from "../../server/db/actor.js";
import { AppError } from "../../server/errors/classes.js";
import { importZip } from "../../server/modules/exports/import-zip.js";
import { EXPORT_FORMAT_VERSION } from "../../server/modules/exports/build.js";
import { useServerSecret } from "../../server/db/secret-box.js";
import { ownerLocation } from "./owner-location.js";

const BOMBS = Number(process.env.RESTORE_BENCH_BOMBS ?? 3);
const MIB = Number(process.env.RESTORE_BENCH_MIB ?? 64);
const mb = (b: number) => Math.round(b / 1024 / 1024);

useServerSecret("bench-secret-bench-secret-bench-secret-01");
const { database, store, dataDir, userId, locationId, close } = await ownerLocation("svc-restore-bench-");

const bomb = Buffer.alloc(MIB * 1024 * 1024 + 2, 0x20);
bomb[0] = 0x5b;
bomb[bomb.length - 1] = 0x5d;
const manifest = { version: EXPORT_FORMAT_VERSION, accountId: uuidv7(), locationIds: [uuidv7()] };
const z = new yazl.ZipFile();
z.addBuffer(Buffer.from("[]"), "records/places.json");
z.addBuffer(bomb, "records/things.json");
z.addBuffer(Buffer.from(JSON.stringify(manifest)), "manifest.json");
z.end();
const chunks: Buffer[] = [];
for await (const c of z.outputStream as AsyncIterable<Buffer>) chunks.push(c);
const file = path.join(dataDir, "bomb.zip");
writeFileSync(file, Buffer.concat(chunks));

const actor = userActor({ id: userId, name: "Bench" }, { mfaProven: false });
global.gc?.();
const before = process.memoryUsage().rss;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
const answers: string[] = [];
const t0 = Date.now();
for (let i = 0; i < BOMBS; i++) {
  try {
    await importZip({ db: database.db, undoWindowMs: 0, store }, actor, locationId, file);
    answers.push("200");
  } catch (err) {
    answers.push(err instanceof AppError ? String(err.status) : "error");
  }
}
clearInterval(sampler);
global.gc?.();
await new Promise((r) => setTimeout(r, 200));
const after = process.memoryUsage().rss;
console.log(
  JSON.stringify({
    database: database.kind,
    bombs: BOMBS,
    zipKb: Math.round(chunks.reduce((n, c) => n + c.length, 0) / 1024),
    inflatesToMib: MIB,
    answers,
    seconds: Math.round((Date.now() - t0) / 100) / 10,
    rssBeforeMb: mb(before),
    peakRssMb: mb(peak),
    rssAfterMb: mb(after),
    keptMb: mb(after - before),
  }),
);
await close();
