/**
 * Takes the metadata out of a JPEG without decoding it: a phone photo's EXIF carries where it was
 * taken (GPS), and a served original must not tell anyone that. Done at upload, before storing, so
 * neither the disk nor the bucket ever holds the location. It walks the JPEG's segments and drops
 * them instead of re-encoding (sharp cannot re-encode losslessly), so the picture's bytes are
 * untouched, and it is a pure function of the bytes: a retried upload of the same photo stores the
 * same blob under the same sha256, which keeps the upload's idempotent retry (file.create compares
 * the sha256).
 *
 * Kept: JFIF (APP0), the colour profile (APP2 "ICC_PROFILE"), Adobe's colour transform (APP14),
 * the tables and the frame. The EXIF orientation is kept by replacing the whole EXIF block with one
 * that holds only it, so the photo still shows upright. Dropped: every other APPn (EXIF with GPS
 * and maker notes, XMP, IPTC, MPF, vendor blocks), comments, and whatever follows the image's end
 * (MPF secondary images, which carry EXIF of their own).
 */
import { ValidationError } from "../../errors/classes.js";

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP2 = 0xe2;
const APP14 = 0xee;

/** Markers that stand alone (no length follows): TEM, RST0-7, SOI, EOI. */
const standalone = (m: number) => m === 0x01 || (m >= 0xd0 && m <= 0xd9);

const startsWith = (b: Buffer, at: number, text: string) => b.subarray(at, at + text.length).toString("latin1") === text;

/** A segment kept, by what it is. Everything not listed here is dropped. */
function kept(marker: number, b: Buffer, payloadAt: number): boolean {
  if (marker === APP0 || marker === APP14) return true;
  if (marker === APP2) return startsWith(b, payloadAt, "ICC_PROFILE\0");
  if (marker >= 0xe0 && marker <= 0xef) return false;
  return marker !== 0xfe; // COM
}

/** The orientation (1-8) in an EXIF APP1 payload, or null when there is none or it cannot be read. */
function exifOrientation(payload: Buffer): number | null {
  if (!startsWith(payload, 0, "Exif\0\0") || payload.length < 14) return null;
  const tiff = payload.subarray(6);
  const order = tiff.subarray(0, 2).toString("latin1");
  if (order !== "II" && order !== "MM") return null;
  const le = order === "II";
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return null;
  const count = u16(ifd);
  for (let i = 0; i < count; i++) {
    const at = ifd + 2 + i * 12;
    if (at + 12 > tiff.length) return null;
    // Orientation: tag 0x0112, one SHORT, held in the entry itself.
    if (u16(at) === 0x0112 && u16(at + 2) === 3) {
      const value = u16(at + 8);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}

/** An APP1 segment whose EXIF holds only the orientation (big-endian TIFF, IFD0 with one entry). */
function orientationSegment(orientation: number): Buffer {
  const payload = Buffer.alloc(6 + 8 + 2 + 12 + 4);
  payload.write("Exif\0\0", 0, "latin1");
  payload.write("MM", 6, "latin1");
  payload.writeUInt16BE(42, 8);
  payload.writeUInt32BE(8, 10); // IFD0 right after the header
  payload.writeUInt16BE(1, 14); // one entry
  payload.writeUInt16BE(0x0112, 16);
  payload.writeUInt16BE(3, 18); // SHORT
  payload.writeUInt32BE(1, 20);
  payload.writeUInt16BE(orientation, 24);
  payload.writeUInt32BE(0, 28); // no next IFD
  const head = Buffer.from([0xff, APP1, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/**
 * Whether picture data ends here with a segment's marker. Inside it 0xFF00 is a data byte, and
 * RSTn markers and 0xFF fill bytes belong to it.
 */
function segmentMarkerAt(b: Buffer, at: number): boolean {
  if (b[at] !== 0xff || at + 1 >= b.length) return false;
  const next = b[at + 1]!;
  return next !== 0x00 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7);
}

/** Refuses a JPEG whose segments cannot be walked: its metadata could not be checked. */
const unreadable = () => new ValidationError("This JPEG could not be read.");

/**
 * The JPEG without its metadata (see the file comment). A JPEG cut short inside its picture data
 * keeps what is there; one cut short or malformed among its segments is refused.
 */
export function stripJpegMetadata(b: Buffer): Buffer {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== SOI) throw unreadable();
  const out: Buffer[] = [b.subarray(0, 2)];
  let orientation: number | null = null;
  // Where the new EXIF goes: where the first EXIF was, else right after SOI (and JFIF, if first).
  let exifSlot = -1;
  let at = 2;
  let inScan = false;
  while (at < b.length) {
    if (inScan) {
      // Picture data: copied up to the next marker.
      let end = at;
      while (end < b.length && !segmentMarkerAt(b, end)) end++;
      out.push(b.subarray(at, end));
      if (end >= b.length) break;
      at = end;
      inScan = false;
      continue;
    }
    if (b[at] !== 0xff) throw unreadable();
    let m = at + 1;
    while (m < b.length && b[m] === 0xff) m++; // fill bytes before a marker
    if (m >= b.length) break;
    const marker = b[m]!;
    if (marker === EOI) {
      out.push(Buffer.from([0xff, EOI]));
      break; // anything after the image's end is dropped
    }
    if (standalone(marker)) {
      out.push(Buffer.from([0xff, marker]));
      at = m + 1;
      continue;
    }
    if (m + 3 > b.length) throw unreadable();
    const length = b.readUInt16BE(m + 1);
    const end = m + 1 + length;
    if (length < 2 || end > b.length) throw unreadable();
    const payloadAt = m + 3;
    if (marker === APP1 && startsWith(b, payloadAt, "Exif\0\0")) {
      orientation ??= exifOrientation(b.subarray(payloadAt, end));
      if (exifSlot < 0) exifSlot = out.length;
    } else if (kept(marker, b, payloadAt)) {
      if (exifSlot < 0 && marker !== APP0) exifSlot = out.length;
      out.push(b.subarray(at, end));
    }
    at = end;
    if (marker === SOS) inScan = true;
  }
  if (orientation !== null && orientation !== 1) out.splice(exifSlot < 0 ? out.length : exifSlot, 0, orientationSegment(orientation));
  return Buffer.concat(out);
}
