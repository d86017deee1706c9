/**
 * The JPEG metadata strip on its own, on real JPEGs made by sharp: the pixels are untouched, the
 * GPS and the camera are gone, the orientation stays, and it gives the same bytes every time (an
 * upload's retry relies on it).
 */
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { stripJpegMetadata } from "../../server/modules/files/jpeg-metadata.js";

const GPS = { IFD0: { Make: "TestCam" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSMapDatum: "WGS-84" } };

async function photo(opts: { progressive?: boolean; orientation?: number } = {}) {
  let s = sharp({ create: { width: 96, height: 64, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 40 } } }).jpeg({
    progressive: !!opts.progressive,
  });
  if (opts.orientation) s = s.withMetadata({ orientation: opts.orientation });
  return s.withExif(GPS).toBuffer();
}

const pixels = async (b: Buffer) => sharp(b).raw().toBuffer();

describe("stripJpegMetadata", () => {
  test.each([
    ["baseline", false],
    ["progressive (several scans)", true],
  ])("%s: same pixels, no GPS or camera, orientation kept", async (_, progressive) => {
    const original = await photo({ progressive, orientation: 8 });
    const out = stripJpegMetadata(original);
    expect((await pixels(out)).equals(await pixels(original))).toBe(true);
    expect(out.includes("WGS-84")).toBe(false);
    expect(out.includes("TestCam")).toBe(false);
    expect((await sharp(out).metadata()).orientation).toBe(8);
    expect(stripJpegMetadata(out).equals(out)).toBe(true);
    expect(stripJpegMetadata(original).equals(out)).toBe(true);
  });

  test("without an orientation no EXIF is left at all; the colour profile stays", async () => {
    const original = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#123456" } })
      .jpeg()
      .withIccProfile("p3")
      .withExif(GPS)
      .toBuffer();
    const meta = await sharp(stripJpegMetadata(original)).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.icc).toBeDefined();
  });

  test("whatever follows the image's end (secondary images with EXIF of their own) is dropped", async () => {
    const main = await photo();
    const secondary = await photo({ orientation: 3 });
    const out = stripJpegMetadata(Buffer.concat([main, secondary]));
    expect(out.equals(stripJpegMetadata(main))).toBe(true);
  });

  test("a JPEG cut short in its segments is refused; one cut short in its picture data keeps what is there", async () => {
    const original = await photo();
    expect(() => stripJpegMetadata(original.subarray(0, 30))).toThrow(/could not be read/);
    const cut = original.subarray(0, original.length - 20);
    const out = stripJpegMetadata(cut);
    expect(out.includes("WGS-84")).toBe(false);
    expect(out.length).toBeLessThan(cut.length);
  });
});
