/**
 * The blob store on S3-compatible object storage (SVC_S3_*): one object per blob, its key the
 * blob's sha256, so every replica configured with the same bucket serves every upload. The AWS
 * SDK is loaded only by a process that uses this store. A failure is reported by operation, S3
 * error name and HTTP status only, never with the SDK's error object (its request is signed with
 * the access key id, and an error body may name it), so logs never carry credentials.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type * as Sdk from "@aws-sdk/client-s3";
import type { S3Config } from "../../config.js";
import { isBlobName, isSha256, sniffMime, SNIFF_BYTES, type BlobStore, type StoredBlob } from "./storage.js";

export class ObjectStorageError extends Error {}

const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;

function failure(op: string, err: unknown): ObjectStorageError {
  const e = (err ?? {}) as { name?: string; code?: string };
  const status = statusOf(err);
  const what = [e.name ?? "Error", e.code, status ? `HTTP ${status}` : undefined].filter(Boolean).join(", ");
  return new ObjectStorageError(`Object storage: ${op} failed (${what}).`);
}

function bodyOf(got: Sdk.GetObjectCommandOutput): Readable {
  if (!(got.Body instanceof Readable)) throw new ObjectStorageError("Object storage: the answer had no body stream.");
  return got.Body;
}

/**
 * The first `n` bytes of a stream (fewer if it is shorter). A body of at most `n` bytes is read to
 * its end, so its connection can be reused; a longer one is cut off (leaving the loop destroys it).
 */
async function firstBytes(body: Readable, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let have = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    have += chunk.length;
    if (have > n) break;
  }
  return Buffer.concat(chunks).subarray(0, n);
}

export class S3BlobStore implements BlobStore {
  private readonly loaded: Promise<{ sdk: typeof Sdk; client: Sdk.S3Client }>;

  constructor(private readonly config: S3Config) {
    this.loaded = import("@aws-sdk/client-s3").then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        forcePathStyle: config.forcePathStyle,
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        ...(config.credentials ? { credentials: config.credentials } : {}),
        // Checksums only where S3 requires them: several S3-compatible servers refuse the SDK's
        // default ones. The SigV4 signature still covers the payload's sha256.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
      }),
    }));
    // A failed load is reported by the first call that needs the client.
    this.loaded.catch(() => undefined);
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const { sdk, client } = await this.loaded;
    const key = { Bucket: this.config.bucket, Key: sha256 };
    try {
      // Content-addressed: an object under this name holds these very bytes already.
      await client.send(new sdk.HeadObjectCommand(key));
      return sha256;
    } catch (err) {
      if (statusOf(err) !== 404) throw failure("head", err);
    }
    try {
      // Two replicas storing the same new bytes at once both write the same object: harmless.
      await client.send(
        new sdk.PutObjectCommand({ ...key, Body: bytes, ContentLength: bytes.length, ContentType: sniffMime(bytes) ?? "application/octet-stream" }),
      );
    } catch (err) {
      throw failure("put", err);
    }
    return sha256;
  }

  /** One PUT, no HEAD first: it is only called for what is not stored yet, and a second write of the same bytes is harmless. */
  async putDerived(name: string, bytes: Buffer): Promise<void> {
    if (!isBlobName(name) || isSha256(name)) throw new ObjectStorageError("Object storage: not a derived name.");
    const { sdk, client } = await this.loaded;
    try {
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.config.bucket,
          Key: name,
          Body: bytes,
          ContentLength: bytes.length,
          ContentType: sniffMime(bytes) ?? "application/octet-stream",
        }),
      );
    } catch (err) {
      throw failure("put", err);
    }
  }

  /** One ranged GET: the first bytes give the kind, its Content-Range the whole object's size. */
  async describe(name: string): Promise<StoredBlob | null> {
    if (!isBlobName(name)) return null;
    const { sdk, client } = await this.loaded;
    let got: Sdk.GetObjectCommandOutput;
    try {
      got = await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: name, Range: `bytes=0-${SNIFF_BYTES - 1}` }));
    } catch (err) {
      if (statusOf(err) === 404) return null;
      // Only an empty object has no first byte to send.
      if (statusOf(err) === 416) return { size: 0, mime: null };
      throw failure("describe", err);
    }
    const head = await firstBytes(bodyOf(got), SNIFF_BYTES);
    // "bytes 0-63/1234": the size follows the slash; a server that ignored the range sent it all.
    const total = /\/(\d+)$/.exec(got.ContentRange ?? "")?.[1];
    const size = total !== undefined ? Number(total) : got.ContentLength;
    if (size === undefined) throw new ObjectStorageError("Object storage: the answer gave no size.");
    return { size, mime: sniffMime(head) };
  }

  async open(name: string): Promise<Readable> {
    if (!isBlobName(name)) throw new ObjectStorageError("Object storage: not a blob name.");
    const { sdk, client } = await this.loaded;
    try {
      return bodyOf(await client.send(new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: name })));
    } catch (err) {
      throw err instanceof ObjectStorageError ? err : failure("get", err);
    }
  }

  async remove(sha256: string): Promise<void> {
    if (!isSha256(sha256)) throw new ObjectStorageError("Object storage: not a blob hash.");
    const { sdk, client } = await this.loaded;
    try {
      // The blob and what is derived from it share its name as their prefix (storage.ts derivedName).
      const listed = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.config.bucket, Prefix: sha256 }));
      for (const o of listed.Contents ?? []) {
        if (o.Key === sha256 || o.Key?.startsWith(`${sha256}.`)) await client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: o.Key }));
      }
    } catch (err) {
      throw err instanceof ObjectStorageError ? err : failure("delete", err);
    }
  }
}
