/**
 * Reading an export's zip for a restore, in two passes so memory stays bounded whatever the
 * number of photos: `readRecords` reads the manifest and the records/*.json rows (the rows must
 * all be known before any is written); `eachPhoto` then hands the photos over one at a time.
 *
 * A zip is someone else's file: every byte inflated is counted as it comes out of the
 * decompressor (the sizes an entry's header declares are the zip's own claim), and the restore
 * stops at the first limit below, with a 413 that names it. Record files are read as a stream of
 * rows (row-reader.ts), so what is held is the rows themselves, never a record file's whole text.
 */
import yauzl from "yauzl";
import { findIllFormedText, ILL_FORMED_TEXT_MESSAGE } from "../../../shared/text.js";
import { MAX_FILE_BYTES } from "../../../shared/files.js";
import { AppError, PayloadTooLargeError, ValidationError } from "../../errors/classes.js";
import { RowListReader } from "./row-reader.js";

const MiB = 1024 * 1024;

/** One record file: a location of tens of thousands of things and their history is a few MiB. */
export const MAX_RECORD_FILE_BYTES = 64 * MiB;
/** All record files together: their rows are held in memory until the restore's one transaction. */
export const MAX_RECORDS_BYTES = 128 * MiB;
/** One row: the largest row the service writes (a history entry's before and after) is far below. */
export const MAX_ROW_BYTES = 4 * MiB;
/** manifest.json: a few hundred bytes when the export writes it. */
export const MAX_MANIFEST_BYTES = 1 * MiB;
/** One photo: no larger than an upload may be. */
export const MAX_PHOTO_BYTES = MAX_FILE_BYTES;
/** Everything one restore inflates (records and photos): photos barely compress, so about the largest upload's size plus its records. */
export const MAX_INFLATED_BYTES = 1024 * MiB;
/**
 * Inflated bytes per packed byte of one entry. JSON rows pack about 5-15 to 1 and photos about
 * 1 to 1; a bomb (a run of one byte) packs about 1000 to 1. Checked once an entry is past
 * RATIO_FLOOR_BYTES, so a small entry that happens to pack well is never refused.
 */
export const MAX_INFLATE_RATIO = 100;
export const RATIO_FLOOR_BYTES = 1 * MiB;

export interface RestoreRow {
  row: Record<string, unknown> & { id: string };
  /** The row's JSON text as the zip holds it (numbers keep their exact digits for jsonb). */
  text: string;
}

export interface ZipRecords {
  manifest: string;
  /** Table name -> its rows, in the zip's order. */
  records: Map<string, RestoreRow[]>;
}

const RECORD = /^records\/([a-z_]+)\.json$/;
const PHOTO = /^files\/([0-9a-f-]{36})\.[a-z]+$/;
const UUID_ONLY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const unreadable = () => new ValidationError("The zip could not be read.");
const mib = (n: number) => `${n / MiB} MiB`;

/** What one restore has inflated so far, across both passes. */
export class InflateBudget {
  records = 0;
  total = 0;
}

/** An entry's consumer: fed its inflated bytes as they come, told when they end. */
interface Sink {
  /** The most this entry may inflate to, and the sentence that says so. */
  max: number;
  what: string;
  data(chunk: Buffer): void;
  end(): Promise<void>;
}

function walk(file: string, budget: InflateBudget, sinkFor: (name: string) => Sink | null): Promise<void> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(new ValidationError("This is not a zip file."));
      let failed = false;
      const fail = (e: unknown) => {
        if (failed) return;
        failed = true;
        zip.close();
        reject(e instanceof AppError ? e : unreadable());
      };
      zip.on("entry", (entry: yauzl.Entry) => {
        if (failed) return;
        let sink: Sink | null;
        try {
          sink = sinkFor(entry.fileName);
        } catch (error) {
          return fail(error);
        }
        if (!sink) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return fail(unreadable());
          let inflated = 0;
          const stop = (error: unknown) => {
            stream.destroy();
            fail(error);
          };
          stream.on("data", (c: Buffer) => {
            if (failed) return;
            inflated += c.length;
            budget.total += c.length;
            const tooBig = (max: number, message: string) => new PayloadTooLargeError(max, { entry: entry.fileName }, message);
            try {
              if (inflated > sink.max)
                throw tooBig(sink.max, `${entry.fileName} in the zip inflates past ${mib(sink.max)}, the most a restore reads of ${sink.what}.`);
              if (inflated > RATIO_FLOOR_BYTES && inflated > MAX_INFLATE_RATIO * Math.max(entry.compressedSize, 1))
                throw tooBig(
                  MAX_INFLATE_RATIO * entry.compressedSize,
                  `${entry.fileName} in the zip inflates to more than ${MAX_INFLATE_RATIO} times its packed size; an export of this service never does, so it is refused as a zip bomb.`,
                );
              if (budget.total > MAX_INFLATED_BYTES)
                throw tooBig(MAX_INFLATED_BYTES, `The zip inflates past ${mib(MAX_INFLATED_BYTES)} in all, the most one restore reads.`);
              sink.data(c);
            } catch (error) {
              stop(error);
            }
          });
          stream.on("error", (error: unknown) => stop(error instanceof AppError ? error : unreadable()));
          stream.on("end", () => {
            if (!failed) sink.end().then(() => zip.readEntry(), stop);
          });
        });
      });
      zip.on("end", () => {
        if (!failed) resolve();
      });
      zip.on("error", () => fail(unreadable()));
      zip.readEntry();
    });
  });
}

/** A row of `file`, parsed and held to the text rule every way in follows (shared/text.ts). */
function parseRow(file: string, text: string, n: number): RestoreRow {
  let row: unknown;
  try {
    row = JSON.parse(text);
  } catch {
    throw new ValidationError(`${file} in the zip is not JSON (row ${n}).`);
  }
  if (!row || typeof row !== "object" || Array.isArray(row) || typeof (row as { id?: unknown }).id !== "string" || !UUID_ONLY.test((row as { id: string }).id))
    throw new ValidationError(`${file} in the zip is not a list of rows with ids (row ${n}).`);
  const bad = findIllFormedText(row);
  if (bad) throw new ValidationError(`${file}, row ${n}, field ${bad.join(".")}: ${ILL_FORMED_TEXT_MESSAGE}.`, { entry: file, row: n, field: bad.join(".") });
  return { row: row as RestoreRow["row"], text };
}

/** Reads the manifest and the rows of the record files of `tables` (others are not inflated at all). */
export async function readRecords(file: string, tables: ReadonlySet<string>, budget = new InflateBudget()): Promise<ZipRecords> {
  let manifest: string | null = null;
  const records = new Map<string, RestoreRow[]>();
  const twice = (name: string) => new ValidationError(`${name} appears twice in the zip; an export holds each file once.`);
  await walk(file, budget, (name): Sink | null => {
    if (name === "manifest.json") {
      if (manifest !== null) throw twice(name);
      const chunks: Buffer[] = [];
      return {
        max: MAX_MANIFEST_BYTES,
        what: "a manifest",
        data: (c) => chunks.push(c),
        end: async () => {
          manifest = Buffer.concat(chunks).toString("utf8");
        },
      };
    }
    const table = RECORD.exec(name)?.[1];
    if (!table || !tables.has(table)) return null;
    if (records.has(table)) throw twice(name);
    const list: RestoreRow[] = [];
    records.set(table, list);
    const ids = new Set<string>();
    const reader = new RowListReader(name, MAX_ROW_BYTES, (text, n) => {
      const parsed = parseRow(name, text, n);
      if (ids.has(parsed.row.id)) throw new ValidationError(`${name} in the zip repeats an id (row ${n}).`);
      ids.add(parsed.row.id);
      list.push(parsed);
    });
    return {
      max: MAX_RECORD_FILE_BYTES,
      what: "one record file",
      data: (c) => {
        budget.records += c.length;
        if (budget.records > MAX_RECORDS_BYTES)
          throw new PayloadTooLargeError(
            MAX_RECORDS_BYTES,
            { entry: name },
            `The zip's record files inflate past ${mib(MAX_RECORDS_BYTES)} together (at ${name}), the most one restore reads.`,
          );
        reader.push(c);
      },
      end: async () => void reader.end(),
    };
  });
  if (manifest === null) throw new ValidationError("The zip has no manifest.json; is it an export of this service?");
  return { manifest, records };
}

/** Hands the bytes of each photo entry of a file in `ids` to `take`, one at a time, in the zip's order (others are not inflated). */
export function eachPhoto(
  file: string,
  ids: ReadonlySet<string>,
  take: (fileId: string, bytes: Buffer) => Promise<void>,
  budget = new InflateBudget(),
): Promise<void> {
  return walk(file, budget, (name): Sink | null => {
    const id = PHOTO.exec(name)?.[1];
    if (!id || !ids.has(id)) return null;
    const chunks: Buffer[] = [];
    return { max: MAX_PHOTO_BYTES, what: "one photo", data: (c) => chunks.push(c), end: () => take(id, Buffer.concat(chunks)) };
  });
}
