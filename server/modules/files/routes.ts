/**
 * POST /api/v1/files (raw bytes of a photo or receipt page; the device may name the id it made
 * offline) and GET /api/v1/files/:id. Uploads happen before the ops that refer to the file.
 */
import path from "node:path";
import { pipeline } from "node:stream/promises";
import express from "express";
import { eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { fileSchema, fileUploadQuery, MAX_FILE_BYTES, type FileRecord } from "../../../shared/files.js";
import { uuidSchema } from "../../../shared/ids.js";
import { roleAtLeast } from "../../../shared/roles.js";
import { executeOne } from "../registry.js";
import { withActor } from "../../db/actor.js";
import { files } from "../../db/schema/index.js";
import { AppError, ForbiddenError, NotFoundError, PayloadTooLargeError, ValidationError } from "../../errors/classes.js";
import { defineRoute, type RouteDef } from "../../http/route.js";
import type { RouteDeps } from "../deps.js";
import { locationAccess } from "../../access/location.js";
import { S3BlobStore } from "./s3-storage.js";
import { DiskBlobStore, sniffMime, type BlobStore } from "./storage.js";

const readRaw = express.raw({ type: () => true, limit: MAX_FILE_BYTES });

const out = (f: typeof files.$inferSelect): FileRecord => ({
  id: f.id,
  locationId: f.locationId,
  mime: f.mime as FileRecord["mime"],
  size: f.size,
  url: `/api/v1/files/${f.id}`,
  // No thumbnails are made yet: clients scale the original.
  thumbUrl: `/api/v1/files/${f.id}`,
});

export function fileRoutes({ db, config }: RouteDeps): RouteDef[] {
  // S3-compatible storage when configured (shared by replicas), otherwise this machine's disk.
  const store: BlobStore = config.s3 ? new S3BlobStore(config.s3) : new DiskBlobStore(path.join(config.dataDir, "files"));
  return [
    defineRoute({
      method: "post",
      path: "/api/v1/files",
      summary: "Upload a photo or receipt page (raw bytes; kind decided from the bytes)",
      tag: "files",
      status: 201,
      query: fileUploadQuery,
      response: fileSchema,
      async handler({ req, res, actor, query }) {
        // Refuse before storing anything: a viewer's bytes never reach the store.
        const view = await withActor(db, actor, (tx) => locationAccess(tx, query.locationId));
        if (!actor.canWrite || !roleAtLeast(view.role, "member")) throw new ForbiddenError(`Your role (${view.role}) cannot add files here.`);
        const body = await new Promise<Buffer>((resolve, reject) =>
          readRaw(req, res, (err?: unknown) => {
            if ((err as { type?: string } | undefined)?.type === "entity.too.large") reject(new PayloadTooLargeError(MAX_FILE_BYTES));
            else if (err) reject(err instanceof AppError ? err : new ValidationError("Could not read the upload."));
            else resolve(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
          }),
        );
        if (!body.length) throw new ValidationError("The upload is empty.");
        const mime = sniffMime(body);
        if (!mime) throw new AppError(415, "unsupported_media_type", "Only JPEG, PNG, WebP, GIF, HEIC, AVIF images and PDF pages can be uploaded.");
        const sha256 = await store.put(body);
        const id = query.id ?? uuidv7();
        await executeOne(
          db,
          actor,
          { name: "file.create", locationId: query.locationId, args: { id, sha256, size: body.length, mime } },
          { undoWindowMs: config.undoWindowMs },
        );
        return withActor(db, actor, async (tx) => out((await tx.select().from(files).where(eq(files.id, id)))[0]!));
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/v1/files/:id",
      summary: "The bytes of a file",
      tag: "files",
      params: z.object({ id: uuidSchema }),
      response: z.unknown(),
      async handler({ res, actor, params }) {
        const f = await withActor(db, actor, async (tx) => (await tx.select().from(files).where(eq(files.id, params.id)))[0]);
        if (!f || f.deletedAt) throw new NotFoundError("file");
        // Size and kind of the stored bytes, not of the record: a wrong length would spill bytes
        // into the next answer on a kept-alive connection, or leave this one hanging.
        const stored = await store.describe(f.sha256);
        if (!stored) throw new NotFoundError("file");
        res.setHeader("content-type", stored.mime ?? "application/octet-stream");
        res.setHeader("content-length", String(stored.size));
        // Content-addressed, so it never changes; private because it is per-user data.
        res.setHeader("cache-control", "private, max-age=31536000, immutable");
        res.setHeader("x-content-type-options", "nosniff");
        res.setHeader("content-security-policy", "default-src 'none'; sandbox");
        await pipeline(await store.open(f.sha256), res);
        return undefined;
      },
    }),
  ] as RouteDef[];
}
