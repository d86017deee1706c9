/**
 * Photos taken offline are uploaded before the ops that reference them are pushed (the server
 * checks that a capture's photo files exist: server/modules/things/capture.ts). The file id is made
 * on the device, so an op can name it before the upload, and a repeated upload after a lost answer
 * is harmless.
 */
import type { InventoryDb, OutboxEntry } from "../db/database.js";
import { ApiError, request } from "./api.js";

/** Statuses that say this file will never be accepted (bad type, too large, malformed). */
const PERMANENT = new Set([400, 413, 415, 422]);

/**
 * Uploads the photos the entries need. Retryable failures (network, 429, 5xx) and sign-in
 * problems throw, so the batch waits; a photo the server refuses for good is marked failed and
 * left out of its op, so the capture itself still goes through and nothing else is lost.
 */
export async function uploadBlobsFor(db: InventoryDb, entries: OutboxEntry[]): Promise<void> {
  for (const entry of entries) {
    for (const id of entry.blobIds) {
      const blob = await db.blobs.get(id);
      if (!blob || blob.state !== "local") continue;
      try {
        await request("POST", `/api/v1/files?locationId=${encodeURIComponent(blob.locationId)}&id=${encodeURIComponent(id)}`, blob.blob);
        await db.blobs.update(id, { state: "uploaded" });
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) await db.blobs.update(id, { state: "uploaded" });
        else if (err instanceof ApiError && PERMANENT.has(err.status)) await db.blobs.update(id, { state: "failed", error: err.message });
        else throw err;
      }
    }
  }
}

/** The op as it goes out: photos that failed for good are left out of a capture (and a reading's proof). */
export async function withoutFailedPhotos(db: InventoryDb, entry: OutboxEntry): Promise<OutboxEntry["op"]> {
  const op = entry.op;
  if (op.name === "reading.capture" && op.args.fileId) {
    if ((await db.blobs.get(op.args.fileId))?.state !== "failed") return op;
    const { fileId: _failed, ...args } = op.args;
    return { ...op, args };
  }
  if (op.name === "receipt.capture") {
    // A receipt is its pages: left without any, the server refuses the op and the inbox shows why.
    const failed = new Set((await db.blobs.bulkGet(op.args.photoFileIds)).filter((b) => b?.state === "failed").map((b) => b!.id));
    return failed.size ? { ...op, args: { ...op.args, photoFileIds: op.args.photoFileIds.filter((id) => !failed.has(id)) } } : op;
  }
  if (op.name !== "thing.capture" || !op.args.photoFileIds?.length) return op;
  const failed = new Set((await db.blobs.bulkGet(op.args.photoFileIds)).filter((b) => b?.state === "failed").map((b) => b!.id));
  if (!failed.size) return op;
  return { ...op, args: { ...op.args, photoFileIds: op.args.photoFileIds.filter((id) => !failed.has(id)) } };
}
