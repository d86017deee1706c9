/**
 * POST /api/v1/exports, GET /api/v1/exports, GET /api/v1/exports/:id, POST /api/v1/exports/:id/cancel,
 * GET /api/v1/exports/:id/file. Never open to a personal token (tokens/allow-list.ts).
 */
import express from "express";
import { z } from "zod";
import {
  ZIP_IMPORT_MAX_BYTES,
  zipImportResultSchema,
  CSV_IMPORT_MAX_BYTES,
  csvImportResultSchema,
  exportCreateBody,
  exportListSchema,
  exportSchema,
} from "../../../shared/exports.js";
import { AppError, PayloadTooLargeError, ValidationError } from "../../errors/classes.js";
import { idParams, defineRoute, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { importCsv } from "./import-csv.js";
import { importZip } from "./import-zip.js";
import { blobStoreOf } from "../files/blob-store.js";
import { receiveToFile } from "./receive.js";
import { cancelExport, createExport, getExport, listExports, sendExportFile, type ExportDeps } from "./service.js";
import { exportDirOf } from "./worker.js";

/** The CSV's bytes as sent: the import decodes them itself, so text that is not UTF-8 is refused by line, not replaced. */
const readCsv = express.raw({ type: () => true, limit: CSV_IMPORT_MAX_BYTES });

export function exportRoutes(deps: ModuleDeps): RouteDef[] {
  const service: ExportDeps = { db: deps.db, auth: deps.auth, limits: deps.limits, dir: exportDirOf(deps.config.dataDir) };
  return [
    defineRoute({
      method: "post",
      path: "/api/v1/exports",
      summary:
        "Start an export of a location (its owners and admins) or of the whole account (its owner): a zip built in the background. `includesSecrets` needs the owner and a fresh re-authentication (403 reauth_required)",
      tag: "exports",
      status: 201,
      body: exportCreateBody,
      response: exportSchema,
      handler: ({ actor, body }) => createExport(service, actor, body),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/exports",
      summary: "My exports, newest first (the last 50)",
      tag: "exports",
      response: exportListSchema,
      handler: ({ actor }) => listExports(deps.db, actor),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/exports/:id",
      summary: "An export: status, progress and, when done, its file's size, sha256 and download URL",
      tag: "exports",
      params: idParams,
      response: exportSchema,
      handler: ({ actor, params }) => getExport(deps.db, actor, params.id),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/exports/:id/cancel",
      summary: "Stop a queued or running export and delete what it wrote; answers the export (status cancelled)",
      tag: "exports",
      params: idParams,
      response: exportSchema,
      handler: ({ actor, params }) => cancelExport(service, actor, params.id),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/exports/:id/file",
      summary: "Download a finished export (application/zip; its sha256 is the export's `sha256`)",
      tag: "exports",
      params: idParams,
      response: z.unknown(),
      produces: "application/zip",
      handler: ({ actor, params, res }) => sendExportFile(service, actor, params.id, res),
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/imports/csv",
      summary: `Import things from CSV text (columns name, quantity, place, type and field keys; at most ${CSV_IMPORT_MAX_BYTES} bytes of UTF-8; a leading BOM is fine). dryRun=true checks every row through the write core and writes nothing; a real run is the same check plus the writes in one transaction, and writes nothing when any row has a problem`,
      tag: "exports",
      params: idParams,
      query: z.object({ dryRun: z.enum(["true", "false"]).default("true") }).strict(),
      consumes: "text/csv",
      response: csvImportResultSchema,
      async handler({ req, res, actor, params, query }) {
        const bytes = await new Promise<Uint8Array>((resolve, reject) =>
          readCsv(req, res, (err?: unknown) => {
            if ((err as { type?: string } | undefined)?.type === "entity.too.large") reject(new PayloadTooLargeError(CSV_IMPORT_MAX_BYTES));
            else if (err) reject(err instanceof AppError ? err : new ValidationError("Could not read the CSV."));
            else resolve(Buffer.isBuffer(req.body) ? req.body : new Uint8Array());
          }),
        );
        return importCsv(deps.service, actor, params.id, bytes, query.dryRun === "true");
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/v1/locations/:id/imports",
      summary: `Restore an export's zip (the raw bytes, at most ${ZIP_IMPORT_MAX_BYTES} bytes) into an empty location: every record of the export with new ids (and, into another account, its registries); 409 when the location is not empty`,
      tag: "exports",
      params: idParams,
      consumes: "application/zip",
      response: zipImportResultSchema,
      async handler({ req, actor, params }) {
        const file = await receiveToFile(req, ZIP_IMPORT_MAX_BYTES);
        try {
          return await importZip({ ...deps.service, store: blobStoreOf(deps.config) }, actor, params.id, file.path);
        } finally {
          await file.remove();
        }
      },
    }),
  ] as RouteDef[];
}
