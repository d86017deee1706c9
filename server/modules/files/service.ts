/**
 * Files for routes: the upload check, storing the bytes and recording them (file.create, one
 * actor transaction with its read-back), and finding the bytes to serve.
 */
import type { Readable } from "node:stream";
import { v7 as uuidv7 } from "uuid";
import { THUMBNAIL_MIMES, type FileRecord } from "../../../shared/files.js";
import { locationAccess } from "../../access/location.js";
import { type Actor, withActor } from "../../db/actor.js";
import { AppError, NotFoundError, ValidationError } from "../../errors/classes.js";
import type { Written } from "../../http/route.js";
import type { ServiceDeps } from "../deps.js";
import { writeOne } from "../write.js";
import { stripJpegMetadata } from "./jpeg-metadata.js";
import { fileOut, findFile } from "./read.js";
import { sniffMime, type BlobStore, type StoredBlob } from "./storage.js";
import { thumbnailOf } from "./thumbs.js";
import { requireWriteRole } from "../../access/role.js";

export interface FileDeps extends ServiceDeps {
  store: BlobStore;
}

/**
 * Refuses an upload before any byte is read: a viewer's bytes never reach the store. A read-only
 * transaction of its own, so none stays open while the bytes arrive.
 */
export async function mayUpload({ db }: FileDeps, actor: Actor, locationId: string): Promise<void> {
  const { role } = await withActor(db, actor, (tx) => locationAccess(tx, locationId));
  requireWriteRole(actor, role, "member", `Your role (${role}) cannot add files here.`);
}

/**
 * Stores the bytes (by their kind, decided from the bytes) and records them in one transaction. A
 * JPEG is stored without its metadata (./jpeg-metadata.ts: no GPS on disk, in the bucket or in a
 * download); the same upload again stores the same blob, so a retry still answers the same file.
 */
export async function uploadFile(deps: FileDeps, actor: Actor, locationId: string, id: string | undefined, uploaded: Buffer): Promise<Written<FileRecord>> {
  if (!uploaded.length) throw new ValidationError("The upload is empty.");
  const mime = sniffMime(uploaded);
  if (!mime) throw new AppError(415, "unsupported_media_type", "Only JPEG, PNG, WebP, GIF, HEIC, AVIF images and PDF pages can be uploaded.");
  const bytes = mime === "image/jpeg" ? stripJpegMetadata(uploaded) : uploaded;
  const sha256 = await deps.store.put(bytes);
  const fileId = id ?? uuidv7();
  return writeOne(
    deps,
    actor,
    () => ({ name: "file.create", locationId, args: { id: fileId, sha256, size: bytes.length, mime } }),
    async (tx) => fileOut(await findFile(tx, fileId)),
  );
}

/** Stored bytes to send: their size and kind as stored, and a stream of them. */
export interface Served {
  stored: StoredBlob;
  open: () => Promise<Readable>;
}

/** The stored bytes of a visible file: their size and kind as stored, and a stream of them. */
export async function openFile({ db, store }: FileDeps, actor: Actor, id: string): Promise<Served> {
  const f = await withActor(db, actor, (tx) => findFile(tx, id));
  const stored = await store.describe(f.sha256);
  if (!stored) throw new NotFoundError("file");
  return { stored, open: () => store.open(f.sha256) };
}

/**
 * The thumbnail of a visible file (the same check as its bytes: 404 unless the actor sees it),
 * made on its first request (./thumbs.ts); 404 for a file no thumbnail is made of (a PDF, or an
 * image sharp cannot read).
 */
export async function openThumbnail({ db, store }: FileDeps, actor: Actor, id: string): Promise<Served> {
  const f = await withActor(db, actor, (tx) => findFile(tx, id));
  if (!(THUMBNAIL_MIMES as readonly string[]).includes(f.mime)) throw new NotFoundError("thumbnail");
  const thumb = await thumbnailOf(store, f.sha256);
  if (!thumb) throw new NotFoundError("thumbnail");
  return { stored: thumb.stored, open: () => store.open(thumb.name) };
}
