/**
 * Thumbnails: at most THUMB_MAX_PX on the long side, WebP, turned upright by the EXIF orientation,
 * with no metadata (sharp writes none unless asked). Made on a thumbnail's first request, not at
 * upload: the records that link a thumbnail know only the file's id (../files/read.ts `thumbUrl`),
 * files stored before thumbnails existed get one too, an upload (often a batch pushed by a device
 * coming back online) is not held up by image work, and a photo never shown small costs nothing.
 *
 * Stored once, next to its blob under a name derived from the blob's sha256 (`derivedName`): a
 * file's bytes never change under its id, so that is the file's thumbnail for good, and two files
 * with the same bytes share it. Concurrent first requests in this process wait for the one
 * making; replicas that race each write the same bytes under the same name, which is harmless.
 */
import type { Readable } from "node:stream";
import { THUMB_MAX_PX } from "../../../shared/files.js";
import { loadSharp } from "./sharp.js";
import { derivedName, type BlobStore, type StoredBlob } from "./storage.js";

/** The recipe's name is part of the stored name: change it whenever the output would change. */
const RECIPE = `thumb-${THUMB_MAX_PX}.webp`;

/** Decoding refuses more pixels than a phone makes (about 100 MP), so a crafted image cannot exhaust memory. */
const MAX_INPUT_PIXELS = 100_000_000;

/** The thumbnail of these image bytes, or null when sharp cannot read them (e.g. a HEIC it has no codec for). */
export async function makeThumbnail(bytes: Buffer): Promise<Buffer | null> {
  const sharp = await loadSharp();
  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
      .autoOrient()
      .resize(THUMB_MAX_PX, THUMB_MAX_PX, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 75 })
      .toBuffer();
  } catch {
    return null;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Makings under way in this process, by stored name, so concurrent first requests make it once. */
const making = new Map<string, Promise<boolean>>();

/**
 * Blobs this process found no thumbnail can be made of, so that asking again (a list showing a HEIC
 * photo on every visit) does not read the whole blob and fail to decode it each time. Bounded: when
 * full it starts over, which costs one more failed try per blob.
 */
const unmakeable = new Set<string>();
const UNMAKEABLE_MAX = 10_000;

async function make(store: BlobStore, sha256: string, name: string): Promise<boolean> {
  if (unmakeable.has(sha256)) return false;
  const thumb = await makeThumbnail(await readAll(await store.open(sha256)));
  if (!thumb) {
    if (unmakeable.size >= UNMAKEABLE_MAX) unmakeable.clear();
    unmakeable.add(sha256);
    return false;
  }
  await store.putDerived(name, thumb);
  return true;
}

/**
 * The stored thumbnail of the blob `sha256`, made and stored first if this is its first request;
 * null when none can be made of it.
 */
export async function thumbnailOf(store: BlobStore, sha256: string): Promise<{ stored: StoredBlob; name: string } | null> {
  const name = derivedName(sha256, RECIPE);
  let stored = await store.describe(name);
  if (!stored) {
    let pending = making.get(name);
    if (!pending) {
      pending = make(store, sha256, name).finally(() => making.delete(name));
      making.set(name, pending);
    }
    if (!(await pending)) return null;
    stored = await store.describe(name);
    if (!stored) return null;
  }
  return { stored, name };
}
