/**
 * Content-addressed blob store under SVC_DATA_DIR/files: a blob's path is its sha256, written to a
 * temporary name and renamed into place, so a reader never sees half a file and the same photo
 * uploaded twice is kept once. (An S3-compatible store can replace this behind the same functions.)
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, type ReadStream } from "node:fs";
import { mkdir, open, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { FILE_MIMES } from "../../../shared/files.js";

export type Mime = (typeof FILE_MIMES)[number];

/** The kind of file these bytes are, from their first bytes; null when we do not keep that kind. */
export function sniffMime(b: Buffer): Mime | null {
  const ascii = (from: number, to: number) => b.subarray(from, to).toString("latin1");
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (ascii(0, 8) === "\x89PNG\r\n\x1a\n") return "image/png";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "image/gif";
  if (ascii(0, 5) === "%PDF-") return "application/pdf";
  if (ascii(4, 8) === "ftyp") {
    const brand = ascii(8, 12);
    if (["heic", "heix", "mif1", "msf1", "heim", "heis"].includes(brand)) return "image/heic";
    if (brand === "avif" || brand === "avis") return "image/avif";
  }
  return null;
}

export class BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(sha256: string): string {
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  async put(bytes: Buffer): Promise<string> {
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    const target = this.pathOf(sha256);
    try {
      await stat(target);
      return sha256;
    } catch {
      /* not stored yet */
    }
    await mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomUUID()}.tmp`;
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, target);
    return sha256;
  }

  /**
   * What is really stored under this hash: its size and, from its first bytes, its kind. Serving
   * answers with these, never with what a record claims, so the headers always match the bytes.
   */
  async describe(sha256: string): Promise<{ size: number; mime: Mime | null } | null> {
    if (!/^[0-9a-f]{64}$/.test(sha256)) return null;
    let handle;
    try {
      handle = await open(this.pathOf(sha256), "r");
    } catch {
      return null;
    }
    try {
      const { size } = await handle.stat();
      const head = Buffer.alloc(Math.min(size, 64));
      await handle.read(head, 0, head.length, 0);
      return { size, mime: sniffMime(head) };
    } finally {
      await handle.close();
    }
  }

  open(sha256: string): ReadStream {
    return createReadStream(this.pathOf(sha256));
  }
}
