/** The configured store for uploaded files: S3-compatible when set (shared by replicas), else this machine's disk. */
import path from "node:path";
import type { Config } from "../../config.js";
import { S3BlobStore } from "./s3-storage.js";
import { DiskBlobStore, type BlobStore } from "./storage.js";

export function blobStoreOf(config: Pick<Config, "s3" | "dataDir">): BlobStore {
  return config.s3 ? new S3BlobStore(config.s3) : new DiskBlobStore(path.join(config.dataDir, "files"));
}
