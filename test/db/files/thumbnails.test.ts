/**
 * Thumbnails and location privacy, on this machine's disk and on S3-compatible storage: a phone
 * photo (a real JPEG made by sharp, with GPS EXIF and a sideways orientation) is served as a small
 * upright WebP with no metadata, made once on its first request and stored next to its blob; the
 * original as served keeps its orientation but no GPS; the thumbnail has the original's access
 * check and long cache headers.
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { fileSchema } from "../../../shared/files.js";
import { startService, type TestService } from "../../support/app.js";
import { apiTest as test } from "../../support/fixtures.js";
import { locationWithRoles, type Client } from "../../support/members.js";
import { startS3, type TestS3 } from "../../support/s3.js";

type Team = Awaited<ReturnType<typeof locationWithRoles>>["as"];

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

/**
 * A 640x480 photo as a phone writes it: EXIF with the camera, orientation 6 (turn 90° clockwise to
 * show) and where it was taken. `shade` makes each photo's bytes (and so its blob) new.
 */
async function phonePhoto(shade: number): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: shade, b: 40 } } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .withExif({
      IFD0: { Make: "TestCam", Model: "Phone 9" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1", GPSMapDatum: "WGS-84" },
    })
    .toBuffer();
}

/** Whether EXIF bytes hold a GPS block: the GPSInfo pointer tag (0x8825) in either byte order, or the datum written above. */
const hasGps = (exif: Buffer | undefined) =>
  !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])) || exif.includes("WGS-84"));

async function upload(svc: TestService, c: Client, loc: string, bytes: Buffer, id = uuidv7()) {
  const res = await fetch(`${svc.url}/api/v1/files?locationId=${loc}&id=${id}`, {
    method: "POST",
    headers: { origin: svc.config.publicUrl.origin, cookie: cookieOf(c), "content-type": "application/octet-stream" },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: fileSchema.parse(await res.json()) };
}

async function get(svc: TestService, c: Client, url: string) {
  const res = await fetch(`${svc.url}${url}`, { headers: { cookie: cookieOf(c) } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Every stored thumbnail on the disk store: its path and inode (a rewrite gives a new one). */
async function diskThumbs(svc: TestService): Promise<{ file: string; ino: number }[]> {
  const root = path.join(svc.config.dataDir, "files");
  const names = (await readdir(root, { recursive: true })).filter((n) => n.endsWith(".thumb-320.webp"));
  return Promise.all(names.map(async (n) => ({ file: n, ino: (await stat(path.join(root, n))).ino })));
}

/** The checks both stores must pass, given a way to list the stored thumbnails. */
async function thumbnailIsSmallUprightAndClean(svc: TestService, as: Team, loc: string, shade: number) {
  const photo = await phonePhoto(shade);
  expect(hasGps((await sharp(photo).metadata()).exif)).toBe(true); // the test photo really has GPS
  const up = await upload(svc, as.member, loc, photo);
  expect(up.status).toBe(201);
  expect(up.body.thumbUrl).toBe(`/api/v1/files/${up.body.id}/thumb`);

  const thumb = await get(svc, as.viewer, up.body.thumbUrl!);
  expect(thumb.status).toBe(200);
  expect(thumb.headers.get("content-type")).toBe("image/webp");
  expect(thumb.headers.get("content-length")).toBe(String(thumb.bytes.length));
  expect(thumb.headers.get("cache-control")).toContain("immutable");
  expect(thumb.headers.get("x-content-type-options")).toBe("nosniff");
  const meta = await sharp(thumb.bytes).metadata();
  expect(meta.format).toBe("webp");
  // Turned upright (the 640x480 photo is a portrait), at most 320 px on the long side.
  expect([meta.width, meta.height]).toEqual([240, 320]);
  expect(meta.exif).toBeUndefined();
  expect(meta.xmp).toBeUndefined();

  const original = await get(svc, as.viewer, up.body.url);
  expect(original.status).toBe(200);
  expect(original.headers.get("content-type")).toBe("image/jpeg");
  expect(original.bytes.length).toBe(up.body.size);
  const om = await sharp(original.bytes).metadata();
  expect([om.width, om.height, om.orientation]).toEqual([640, 480, 6]);
  expect(hasGps(om.exif)).toBe(false);
  expect(original.bytes.includes("WGS-84")).toBe(false);
  expect(original.bytes.includes("TestCam")).toBe(false);
  // The picture itself is untouched: it decodes to the same pixels as the upload.
  expect((await sharp(original.bytes).raw().toBuffer()).equals(await sharp(photo).raw().toBuffer())).toBe(true);

  // The same upload again (a retry after a lost answer) answers the same file.
  const again = await upload(svc, as.member, loc, photo, up.body.id);
  expect(again.status).toBe(201);
  expect(again.body).toEqual(up.body);

  // An outsider (a member of another location only) gets 404, as for the original.
  expect((await get(svc, as.outsider, up.body.thumbUrl!)).status).toBe(404);
  expect((await get(svc, as.outsider, up.body.url)).status).toBe(404);
  return { up, thumb };
}

describe("on the disk store", () => {
  test("a phone photo's thumbnail is small, upright and without metadata; the original has no GPS", async ({ svc, loc, as }) => {
    const { up, thumb } = await thumbnailIsSmallUprightAndClean(svc, as, loc, 10);
    const stored = await diskThumbs(svc);
    expect(stored).toHaveLength(1);
    // A second request serves the stored thumbnail: the same bytes, the file not written again.
    const second = await get(svc, as.member, up.body.thumbUrl!);
    expect(second.bytes.equals(thumb.bytes)).toBe(true);
    expect(await diskThumbs(svc)).toEqual(stored);
  });

  test("concurrent first requests all get the thumbnail, stored once", async ({ svc, loc, as }) => {
    const before = (await diskThumbs(svc)).length;
    const up = await upload(svc, as.member, loc, await phonePhoto(90));
    const all = await Promise.all([1, 2, 3, 4].map(() => get(svc, as.member, up.body.thumbUrl!)));
    expect(all.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(all.every((r) => r.bytes.equals(all[0]!.bytes))).toBe(true);
    expect(await diskThumbs(svc)).toHaveLength(before + 1);
  });

  test("two files with the same photo share one stored thumbnail; PNG and WebP get one too", async ({ svc, loc, as }) => {
    const photo = await phonePhoto(150);
    const a = await upload(svc, as.member, loc, photo);
    const b = await upload(svc, as.admin, loc, photo);
    const before = (await diskThumbs(svc)).length;
    expect((await get(svc, as.member, a.body.thumbUrl!)).status).toBe(200);
    expect((await get(svc, as.member, b.body.thumbUrl!)).status).toBe(200);
    expect(await diskThumbs(svc)).toHaveLength(before + 1);
    // Scaled down to 320 on the long side, never up.
    for (const [bytes, size] of [
      [
        await sharp({ create: { width: 1000, height: 200, channels: 4, background: "#2040a0" } })
          .png()
          .toBuffer(),
        [320, 64],
      ],
      [
        await sharp({ create: { width: 100, height: 50, channels: 3, background: "#20a040" } })
          .webp()
          .toBuffer(),
        [100, 50],
      ],
    ] as const) {
      const up = await upload(svc, as.member, loc, bytes);
      const thumb = await get(svc, as.member, up.body.thumbUrl!);
      expect(thumb.status).toBe(200);
      const m = await sharp(thumb.bytes).metadata();
      expect([m.width, m.height]).toEqual(size);
    }
  });

  test("a PDF has no thumbnail: thumbUrl is null and the thumbnail URL is 404", async ({ svc, loc, as }) => {
    const pdf = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    const up = await upload(svc, as.member, loc, pdf);
    expect(up.status).toBe(201);
    expect(up.body.thumbUrl).toBeNull();
    expect((await get(svc, as.member, `/api/v1/files/${up.body.id}/thumb`)).status).toBe(404);
  });

  test("an image that cannot be decoded has a thumbUrl that answers 404, every time, and nothing is stored", async ({ svc, loc, as }) => {
    const before = (await diskThumbs(svc)).length;
    const up = await upload(svc, as.member, loc, Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(64, 7)]));
    expect(up.body).toMatchObject({ mime: "image/gif", thumbUrl: `/api/v1/files/${up.body.id}/thumb` });
    for (let i = 0; i < 2; i++) expect((await get(svc, as.member, up.body.thumbUrl!)).status).toBe(404);
    expect((await get(svc, as.member, up.body.url)).status).toBe(200);
    expect(await diskThumbs(svc)).toHaveLength(before);
  });

  test("a meter proof's thumbUrl is the thumbnail", async ({ svc, loc, as }) => {
    const up = await upload(svc, as.member, loc, await phonePhoto(200));
    const thing = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Meter cupboard" });
    const meter = await as.member.post(`/api/v1/things/${thing.body.id}/meters`, { kind: "electricity", unit: "kWh", label: "Hall" });
    expect(meter.status).toBe(201);
    const reading = await as.member.post(`/api/v1/meters/${meter.body.id}/readings`, { value: "12.5", fileId: up.body.id });
    expect(reading.status).toBe(201);
    expect(reading.body.thumbUrl).toBe(up.body.thumbUrl);
    const thumb = await get(svc, as.viewer, reading.body.thumbUrl);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get("content-type")).toBe("image/webp");
  });
});

describe("on S3-compatible storage", () => {
  let s3: TestS3;
  let svc: TestService;
  let loc: string;
  let as: Team;
  beforeAll(async () => {
    s3 = await startS3();
    svc = await startService(s3.env);
    ({ locationId: loc, as } = await locationWithRoles(svc));
  });
  afterAll(async () => {
    await svc?.close();
    await s3?.close();
  });

  test("the thumbnail is stored in the bucket next to its blob, once", async () => {
    const { up, thumb } = await thumbnailIsSmallUprightAndClean(svc, as, loc, 30);
    const objects = await s3.list();
    const thumbs = objects.filter((o) => o.key.endsWith(".thumb-320.webp"));
    expect(thumbs).toEqual([{ key: expect.stringMatching(/^[0-9a-f]{64}\.thumb-320\.webp$/), size: thumb.bytes.length }]);
    // The original in the bucket is the stripped one: no location at rest either.
    expect(objects).toContainEqual({ key: thumbs[0]!.key.slice(0, 64), size: up.body.size });
    const puts = s3.puts();
    const second = await get(svc, as.member, up.body.thumbUrl!);
    expect(second.bytes.equals(thumb.bytes)).toBe(true);
    expect(s3.puts()).toBe(puts);
  });
});
