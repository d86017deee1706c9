/**
 * Where uploaded bytes live: the blob store interface, what kind a file is from its bytes, and the
 * default store on this machine's disk. The other store, for several replicas, is S3-compatible
 * object storage (./s3-storage.ts); the configuration picks one at start-up (./routes.ts).
 */
import { createHash, randomUUID } from "node:crypto";
import { mkdir, open, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { FILE_MIMES } from "../../../shared/files.js";

export type Mime = (typeof FILE_MIMES)[number];

/** What is really stored under a hash: its size, and its kind from its first bytes (null: not a kind we keep). */
export interface StoredBlob {
  size: number;
  mime: Mime | null;
}

/**
 * Content-addressed bytes: a blob's name is the hex sha256 of its bytes, so storing the same
 * photo twice keeps it once, and a name never stands for other bytes. Bytes made from a blob (a
 * thumbnail) are stored next to it under a derived name (`derivedName`), which holds the same
 * promise because the recipe is part of the name.
 */
export interface BlobStore {
  /** Stores the bytes (unless already there) and answers their sha256. */
  put(bytes: Buffer): Promise<string>;
  /** Stores bytes made from a blob under their derived name (the same bytes written twice are harmless). */
  putDerived(name: string, bytes: Buffer): Promise<void>;
  /** Size and kind of the stored bytes, or null when nothing is stored under this hash or derived name. */
  describe(name: string): Promise<StoredBlob | null>;
  /** The stored bytes, from the first one. */
  open(name: string): Promise<Readable>;
  /**
   * Removes a blob and everything derived from it. Only for a blob no record names any more (a
   * purged location's photos): the store is shared by every location, so the caller checks that.
   */
  remove(sha256: string): Promise<void>;
}

export const isSha256 = (s: string) => /^[0-9a-f]{64}$/.test(s);

/**
 * The name of what `recipe` (e.g. "thumb-320.webp") makes of the blob `sha256`. A changed recipe
 * must get a new recipe name, so an old name never stands for other bytes.
 */
export function derivedName(sha256: string, recipe: string): string {
  if (!isSha256(sha256) || !/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(recipe)) throw new Error("Not a blob hash and recipe name.");
  return `${sha256}.${recipe}`;
}

/** A blob hash, or a derived name: no separators, so it never leaves the store's folder or bucket. */
export const isBlobName = (s: string) => /^[0-9a-f]{64}(\.[a-z0-9-]+)*$/.test(s);

/** How many first bytes `sniffMime` looks at. */
export const SNIFF_BYTES = 64;

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

/**
 * The blob store under SVC_DATA_DIR/files: a blob's path is its sha256, written to a temporary
 * name and renamed into place, so a reader never sees half a file.
 */
export class DiskBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  /** A blob and what is made of it share a folder, by the blob's first hex digits. */
  private pathOf(name: string): string {
    return path.join(this.root, name.slice(0, 2), name.slice(2, 4), name);
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
    await this.write(target, bytes);
    return sha256;
  }

  async putDerived(name: string, bytes: Buffer): Promise<void> {
    if (!isBlobName(name) || isSha256(name)) throw new Error("Not a derived name.");
    await this.write(this.pathOf(name), bytes);
  }

  /** Writes to a temporary name and renames into place: two writers of the same bytes both succeed. */
  private async write(target: string, bytes: Buffer): Promise<void> {
    await mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${randomUUID()}.tmp`;
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, target);
  }

  /**
   * What is really stored under this hash: its size and, from its first bytes, its kind. Serving
   * answers with these, never with what a record claims, so the headers always match the bytes.
   */
  async describe(name: string): Promise<StoredBlob | null> {
    if (!isBlobName(name)) return null;
    let handle;
    try {
      handle = await open(this.pathOf(name), "r");
    } catch {
      return null;
    }
    try {
      const { size } = await handle.stat();
      const head = Buffer.alloc(Math.min(size, SNIFF_BYTES));
      await handle.read(head, 0, head.length, 0);
      return { size, mime: sniffMime(head) };
    } finally {
      await handle.close();
    }
  }

  /** Opens the file before answering, so a blob gone from disk fails here, not later mid-stream. */
  async open(name: string): Promise<Readable> {
    if (!isBlobName(name)) throw new Error("Not a blob name.");
    const handle = await open(this.pathOf(name), "r");
    return handle.createReadStream();
  }

  async remove(sha256: string): Promise<void> {
    if (!isSha256(sha256)) throw new Error("Not a blob hash.");
    const folder = path.dirname(this.pathOf(sha256));
    const names = await readdir(folder).catch(() => [] as string[]);
    await Promise.all(names.filter((n) => n === sha256 || n.startsWith(`${sha256}.`)).map((n) => rm(path.join(folder, n), { force: true })));
  }
}
