/**
 * Export zips in db tests: an export worker over the test service's store and folder, a location
 * exported and downloaded, a zip's entries read back, and a crafted zip made of entries.
 */
import pino from "pino";
import yauzl from "yauzl";
import yazl from "yazl";
import { expect } from "vitest";
import { blobStoreOf } from "../../server/modules/files/blob-store.js";
import { exportDirOf, startExportWorker, type ExportWorkerDeps } from "../../server/modules/exports/worker.js";
import type { TestService } from "./app.js";
import type { Client } from "./members.js";
import { raw } from "./rich-location.js";

/** An export worker of the test service, run by hand (`drain`), with no timer of its own. */
export const exportWorker = (svc: TestService, extra: Partial<ExportWorkerDeps> = {}) =>
  startExportWorker(
    {
      db: svc.database.db,
      store: blobStoreOf(svc.config),
      dir: exportDirOf(svc.config.dataDir),
      logger: pino({ level: "silent" }),
      origin: svc.config.publicUrl.origin,
      ...extra,
    },
    { timer: false },
  );

/** A location's export made with these options, built by the worker and downloaded. */
export async function exportedZip(svc: TestService, c: Client, loc: string, body: Record<string, unknown> = {}): Promise<Buffer> {
  const made = await c.post("/api/v1/exports", { scope: "location", locationId: loc, ...body });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  await exportWorker(svc).drain();
  return (await raw(svc, c, "GET", `/api/v1/exports/${made.body.id}/file`)).bytes;
}

/** Every entry of a zip, by name. */
export function entries(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, z) => {
      if (err || !z) return reject(err ?? new Error("not a zip"));
      const out = new Map<string, Buffer>();
      z.on("entry", (e: yauzl.Entry) =>
        z.openReadStream(e, (_e, s) => {
          const chunks: Buffer[] = [];
          s.on("data", (c: Buffer) => chunks.push(c));
          s.on("end", () => {
            out.set(e.fileName, Buffer.concat(chunks));
            z.readEntry();
          });
        }),
      );
      z.on("end", () => resolve(out));
      z.readEntry();
    }),
  );
}

/** A zip of these entries (a crafted export). */
export function zipOf(files: Map<string, Buffer>): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [name, bytes] of files) z.addBuffer(bytes, name);
  z.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    z.outputStream.on("data", (c: Buffer) => chunks.push(c));
    z.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    z.outputStream.on("error", reject);
  });
}
