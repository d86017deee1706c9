/**
 * Builds one export's zip, streamed to disk entry by entry: a JSON file per table (written a page
 * at a time), the photos under files/, CSV files when `readable`, and manifest.json last (it holds
 * the counts). Memory stays one page of rows plus the streams' buffers whatever the size: the zip
 * library reads each entry as it is written, and the next entry is only added once the last ended.
 * The sha256 is taken of the bytes as they go to disk, so it is the hash of the file downloaded.
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { PassThrough, Transform, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import yazl from "yazl";
import { rows, sql, uuidArray, type Db } from "../../db/client.js";
import { asSystem } from "../../db/actor.js";
import type { BlobStore } from "../files/storage.js";
import { secretBox } from "../../db/secret-box.js";
import { countRows, pageOf, tablesOf, tombstoned, type Scope } from "./tables.js";
import { csvLine, placePaths } from "./csv.js";

export const EXPORT_FORMAT_VERSION = 1;

export class Cancelled extends Error {}

export interface BuildDeps {
  db: Db;
  store: BlobStore;
  /** Folder of finished and partial export files. */
  dir: string;
  /** Called every page with progress; answers false when the export was cancelled. */
  beat(done: number, total: number): Promise<boolean>;
  /** The inventory report PDF of one location, as the requester would get it (the `pdf` option). */
  report?: (locationId: string) => Promise<Buffer>;
}

export const exportPath = (dir: string, id: string) => path.join(dir, `${id}.zip`);
const partPath = (dir: string, id: string) => path.join(dir, `${id}.zip.part`);

export async function removeExportFiles(dir: string, id: string): Promise<void> {
  await rm(exportPath(dir, id), { force: true });
  await rm(partPath(dir, id), { force: true });
}

const EXT: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/heic": "heic",
  "image/avif": "avif",
  "application/pdf": "pdf",
};

export async function buildExport(
  deps: BuildDeps,
  job: { id: string; scope: "location" | "account"; createdAt: string; includesSecrets: boolean },
  scope: Scope,
): Promise<{ bytes: number; sha256: string; total: number }> {
  const { db, dir } = deps;
  await mkdir(dir, { recursive: true });
  const tables = tablesOf(scope.options);
  const dead = await tombstoned(db);
  const counts: Record<string, number> = {};
  for (const t of tables) counts[t.name] = await countRows(db, t, scope, dead);
  const photos = counts.files ?? 0;
  const reports = scope.options.pdf && deps.report ? scope.locationIds.length : 0;
  const total = Object.values(counts).reduce((a, b) => a + b, 0) + photos + reports;
  let done = 0;
  const tick = async () => {
    if (!(await deps.beat(done, total))) throw new Cancelled();
  };
  await tick();

  const zip = new yazl.ZipFile();
  const hash = createHash("sha256");
  let bytes = 0;
  const hasher = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      bytes += chunk.length;
      cb(null, chunk);
    },
  });
  const part = partPath(dir, job.id);
  // Opened before the first beat, so the partial file exists while the export is under way
  // (a cancel or a failure finds it and removes it), however fast the first entries go.
  const out = createWriteStream(part);
  await once(out, "open");
  const written = pipeline(zip.outputStream, hasher, out);
  written.catch(() => undefined); // awaited below; a cancel destroys it on purpose
  const mtime = new Date(job.createdAt);

  /** One entry, written by `produce`: waits on the zip's reading, so nothing piles up in memory. */
  const entry = async (name: string, produce: (write: (s: string | Buffer) => Promise<void>) => Promise<void>, compress = true) => {
    const pt = new PassThrough();
    zip.addReadStream(pt, name, { mtime, compress });
    await produce(async (s) => {
      if (!pt.write(s)) await once(pt, "drain");
    });
    pt.end();
  };

  try {
    for (const table of tables) {
      await entry(`records/${table.name}.json`, async (write) => {
        await write("[");
        let after: string | null = null;
        let first = true;
        for (;;) {
          const page = await pageOf(db, table, scope, dead, after);
          for (const r of page) {
            await write(`${first ? "\n" : ",\n"}${r.json}`);
            first = false;
          }
          done += page.length;
          await tick();
          if (page.length < 500) break;
          after = page[page.length - 1]!.id;
        }
        await write("\n]\n");
      });
    }
    let missingFiles = 0;
    let after: string | null = null;
    for (;;) {
      const page = await asSystem(db, (tx) =>
        rows<{ id: string; sha256: string; mime: string }>(
          tx,
          sql`SELECT id::text AS id, sha256, mime FROM files WHERE location_id = ANY(${uuidArray(scope.locationIds)})
              ${scope.options.trashed ? sql`` : sql`AND deleted_at IS NULL`} ${after ? sql`AND id > ${after}::uuid` : sql``} ORDER BY id LIMIT 200`,
        ),
      );
      for (const f of page) {
        // A blob gone from the store is counted in the manifest, not a failed export; it must be
        // known before its entry is added, since an entry whose bytes never end stalls the zip.
        const source = await deps.store.open(f.sha256).catch(() => null);
        if (source)
          await entry(
            `files/${f.id}.${EXT[f.mime] ?? "bin"}`,
            async (write) => {
              for await (const chunk of source) await write(chunk as Buffer);
            },
            false,
          );
        else missingFiles += 1;
        done += 1;
      }
      await tick();
      if (page.length < 200) break;
      after = page[page.length - 1]!.id;
    }
    if (job.includesSecrets) await entry("records/secret_values.json", (write) => writeSecrets(db, scope, write));
    if (scope.options.readable) await writeCsv(db, scope, entry);
    if (reports) {
      // One report per location: report.pdf for a location's export, reports/<location id>.pdf for an account's.
      for (const locationId of scope.locationIds) {
        const pdf = await deps.report!(locationId);
        await entry(job.scope === "location" ? "report.pdf" : `reports/${locationId}.pdf`, (write) => write(pdf), false);
        done += 1;
        await tick();
      }
    }
    const manifest = {
      version: EXPORT_FORMAT_VERSION,
      exportId: job.id,
      scope: job.scope,
      accountId: scope.accountId,
      locationIds: scope.locationIds,
      createdAt: job.createdAt,
      options: scope.options,
      includesSecrets: job.includesSecrets,
      counts: { ...counts, photos: photos - missingFiles },
      missingFiles,
    };
    await entry("manifest.json", (write) => write(`${JSON.stringify(manifest, null, 2)}\n`));
    zip.end();
    await written;
    await rename(part, exportPath(dir, job.id));
    return { bytes, sha256: hash.digest("hex"), total };
  } catch (err) {
    (zip.outputStream as Readable).destroy();
    await written.catch(() => undefined);
    await removeExportFiles(dir, job.id);
    throw err;
  }
}

/** Secret values, decrypted with the account's key: only in an export the owner re-authenticated for. */
async function writeSecrets(db: Db, scope: Scope, write: (s: string) => Promise<void>): Promise<void> {
  const found = await asSystem(db, (tx) =>
    rows<{ id: string; thing_id: string | null; place_id: string | null; field_id: string; ciphertext: string }>(
      tx,
      sql`SELECT id::text AS id, thing_id::text AS thing_id, place_id::text AS place_id, field_id::text AS field_id, ciphertext
          FROM secret_values WHERE location_id = ANY(${uuidArray(scope.locationIds)}) ORDER BY id`,
    ),
  );
  const box = secretBox();
  await write("[");
  let first = true;
  for (const s of found) {
    const entity = s.thing_id ? ("thing" as const) : ("place" as const);
    let value: unknown = null;
    if (s.ciphertext) {
      try {
        value = box.open({ accountId: scope.accountId, entity, entityId: (s.thing_id ?? s.place_id)!, fieldId: s.field_id }, s.ciphertext);
      } catch {
        value = null; // not readable with this server's secret
      }
    }
    await write(`${first ? "\n" : ",\n"}${JSON.stringify({ id: s.id, thingId: s.thing_id, placeId: s.place_id, fieldId: s.field_id, value })}`);
    first = false;
  }
  await write("\n]\n");
}

type Entry = (name: string, produce: (write: (s: string) => Promise<void>) => Promise<void>) => Promise<void>;

/** things.csv and places.csv for people who open exports in a spreadsheet. */
async function writeCsv(db: Db, scope: Scope, entry: Entry): Promise<void> {
  const paths = await placePaths(db, scope.locationIds);
  await entry("places.csv", async (write) => {
    await write(csvLine(["id", "location_id", "name", "path", "is_unplaced"]));
    for (const [id, p] of paths) await write(csvLine([id, p.locationId, p.name, p.path, p.isUnplaced ? "true" : "false"]));
  });
  await entry("things.csv", async (write) => {
    await write(csvLine(["id", "location_id", "name", "quantity", "place", "type", "lifecycle", "condition", "brand", "model", "serial", "fields"]));
    let after: string | null = null;
    for (;;) {
      const page = await asSystem(db, (tx) =>
        rows<Record<string, string | null>>(
          tx,
          sql`SELECT t.id::text AS id, t.location_id::text AS location_id, t.name, t.quantity::text AS quantity, t.place_id::text AS place_id,
                coalesce(ty.name, ty.builtin_key) AS type, t.lifecycle, t.condition, b.name AS brand, t.model, t.serial, t.fields::text AS fields
              FROM things t JOIN types ty ON ty.id = t.type_id LEFT JOIN brands b ON b.id = t.brand_id
              WHERE t.location_id = ANY(${uuidArray(scope.locationIds)})
                ${scope.options.trashed ? sql`` : sql`AND t.deleted_at IS NULL`} ${scope.options.ended ? sql`` : sql`AND t.lifecycle <> 'ended'`}
                ${after ? sql`AND t.id > ${after}::uuid` : sql``}
              ORDER BY t.id LIMIT 500`,
        ),
      );
      for (const t of page) {
        const place = t.place_id ? (paths.get(t.place_id)?.path ?? "") : "";
        await write(csvLine([t.id, t.location_id, t.name, t.quantity, place, t.type, t.lifecycle, t.condition, t.brand, t.model, t.serial, t.fields]));
      }
      if (page.length < 500) break;
      after = page[page.length - 1]!.id!;
    }
  });
}
