/**
 * Reading an export's zip for a restore, in two passes so memory stays bounded whatever the
 * number of photos: `readRecords` keeps the manifest and the records/*.json texts (the rows must
 * all be known before any is written) and lists the photo entries; `eachPhoto` then hands the
 * photos over one at a time.
 */
import yauzl from "yauzl";
import { ValidationError } from "../../errors/classes.js";

export interface ZipRecords {
  manifest: string;
  /** Table name -> the JSON array text of its rows, as written by the export. */
  records: Map<string, string>;
  /** Photo entry names (files/<id>.<ext>) by the old file id. */
  photos: Map<string, string>;
}

/** Any record file holds at most this many bytes of JSON (a restore parses it in memory). */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;
const RECORD = /^records\/([a-z_]+)\.json$/;
const PHOTO = /^files\/([0-9a-f-]{36})\.[a-z]+$/;

const unreadable = () => new ValidationError("The zip could not be read.");

function walk(
  file: string,
  wanted: (name: string) => boolean,
  take: (name: string, bytes: Buffer) => Promise<void>,
  seen?: (name: string) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(new ValidationError("This is not a zip file."));
      const fail = (e: unknown) => {
        zip.close();
        reject(e instanceof Error ? e : unreadable());
      };
      zip.on("entry", (entry: yauzl.Entry) => {
        seen?.(entry.fileName);
        if (!wanted(entry.fileName)) return zip.readEntry();
        if (entry.uncompressedSize > MAX_RECORD_BYTES) return fail(new ValidationError(`${entry.fileName} in the zip is too large to restore.`));
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(unreadable());
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("error", () => fail(unreadable()));
          stream.on("end", () => {
            take(entry.fileName, Buffer.concat(chunks)).then(() => zip.readEntry(), fail);
          });
        });
      });
      zip.on("end", () => resolve());
      zip.on("error", () => fail(unreadable()));
      zip.readEntry();
    });
  });
}

export async function readRecords(file: string): Promise<ZipRecords> {
  let manifest: string | null = null;
  const records = new Map<string, string>();
  const photos = new Map<string, string>();
  await walk(
    file,
    (name) => name === "manifest.json" || RECORD.test(name),
    async (name, bytes) => {
      if (name === "manifest.json") manifest = bytes.toString("utf8");
      else records.set(RECORD.exec(name)![1]!, bytes.toString("utf8"));
    },
    (name) => {
      const m = PHOTO.exec(name);
      if (m) photos.set(m[1]!, name);
    },
  );
  if (manifest === null) throw new ValidationError("The zip has no manifest.json; is it an export of this service?");
  return { manifest, records, photos };
}

/** Hands each photo entry's bytes to `take`, one at a time, in the zip's order. */
export function eachPhoto(file: string, take: (fileId: string, bytes: Buffer) => Promise<void>): Promise<void> {
  return walk(
    file,
    (name) => PHOTO.test(name),
    (name, bytes) => take(PHOTO.exec(name)![1]!, bytes),
  );
}
