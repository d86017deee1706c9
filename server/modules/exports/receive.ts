/** A request body streamed to a temporary file with a size limit (an export's zip is too large to hold in memory). */
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { Request } from "express";
import { PayloadTooLargeError, ValidationError } from "../../errors/classes.js";

export async function receiveToFile(req: Request, maxBytes: number): Promise<{ path: string; remove(): Promise<void> }> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > maxBytes) throw new PayloadTooLargeError(maxBytes);
  const dir = await mkdtemp(path.join(tmpdir(), "svc-import-"));
  const file = path.join(dir, "upload.zip");
  const remove = () => rm(dir, { recursive: true, force: true });
  let seen = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      seen += chunk.length;
      if (seen > maxBytes) return cb(new PayloadTooLargeError(maxBytes));
      cb(null, chunk);
    },
  });
  try {
    await pipeline(req, limit, createWriteStream(file));
  } catch (err) {
    await remove();
    throw err instanceof PayloadTooLargeError ? err : new ValidationError("Could not read the upload.");
  }
  if (!seen) {
    await remove();
    throw new ValidationError("The upload is empty.");
  }
  return { path: file, remove };
}
