/**
 * POST /api/v1/files (raw bytes of a photo or receipt page; the device may name the id it made
 * offline), GET /api/v1/files/:id and GET /api/v1/files/:id/thumb. Uploads happen before the ops
 * that refer to the file.
 */
import { pipeline } from "node:stream/promises";
import express from "express";
import { z } from "zod";
import { fileSchema, fileUploadQuery, MAX_FILE_BYTES, THUMB_MAX_PX } from "../../../shared/files.js";
import { AppError, PayloadTooLargeError, ValidationError } from "../../errors/classes.js";
import { idParams, defineRoute, defineWrite, type RouteDef } from "../../http/route.js";
import type { ModuleDeps } from "../manifest.js";
import { blobStoreOf } from "./blob-store.js";
import { mayUpload, openFile, openThumbnail, uploadFile, type FileDeps, type Served } from "./service.js";

const readRaw = express.raw({ type: () => true, limit: MAX_FILE_BYTES });

/**
 * Sends stored bytes with the size and kind of the stored bytes, not of the record: a wrong length
 * would spill bytes into the next answer on a kept-alive connection, or leave this one hanging.
 */
async function send(res: express.Response, { stored, open }: Served): Promise<undefined> {
  res.setHeader("content-type", stored.mime ?? "application/octet-stream");
  res.setHeader("content-length", String(stored.size));
  // A file's bytes (and so its thumbnail) never change under its id; private because it is per-user data.
  res.setHeader("cache-control", "private, max-age=31536000, immutable");
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("content-security-policy", "default-src 'none'; sandbox");
  await pipeline(await open(), res);
  return undefined;
}

export function fileRoutes(deps: ModuleDeps): RouteDef[] {
  const service: FileDeps = { ...deps.service, store: blobStoreOf(deps.config) };
  return [
    defineWrite({
      method: "post",
      path: "/api/v1/files",
      summary: "Upload a photo or receipt page (raw bytes; kind decided from the bytes)",
      tag: "files",
      status: 201,
      query: fileUploadQuery,
      consumes: "*/*",
      response: fileSchema,
      async handler({ req, res, actor, query }) {
        await mayUpload(service, actor, query.locationId);
        const body = await new Promise<Buffer>((resolve, reject) =>
          readRaw(req, res, (err?: unknown) => {
            if ((err as { type?: string } | undefined)?.type === "entity.too.large") reject(new PayloadTooLargeError(MAX_FILE_BYTES));
            else if (err) reject(err instanceof AppError ? err : new ValidationError("Could not read the upload."));
            else resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
          }),
        );
        return uploadFile(service, actor, query.locationId, query.id, body);
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/files/:id",
      summary: "The bytes of a file",
      tag: "files",
      params: idParams,
      response: z.unknown(),
      produces: "*/*",
      handler: async ({ res, actor, params }) => send(res, await openFile(service, actor, params.id)),
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/files/:id/thumb",
      summary: `A photo's thumbnail (WebP, at most ${THUMB_MAX_PX} px on the long side, no metadata); 404 for a PDF`,
      tag: "files",
      params: idParams,
      response: z.unknown(),
      produces: "image/webp",
      handler: async ({ res, actor, params }) => send(res, await openThumbnail(service, actor, params.id)),
    }),
  ] as RouteDef[];
}
