/**
 * Files on S3-compatible object storage (SVC_S3_*): the server's real AWS SDK client against an
 * S3-compatible server on loopback. One object per blob under its sha256, stored once, served
 * with the stored object's size and kind, and by any app instance configured with the bucket.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { DeleteObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../../../server/config.js";
import { startService, type TestService } from "../../support/app.js";
import { locationWithRoles, type Client } from "../../support/members.js";
import { startS3, type TestS3 } from "../../support/s3.js";

let s3: TestS3;
let svc: TestService;
let loc: string;
let as: Awaited<ReturnType<typeof locationWithRoles>>["as"];
const others: TestService[] = [];

beforeAll(async () => {
  s3 = await startS3();
  svc = await startService(s3.env);
  ({ locationId: loc, as } = await locationWithRoles(svc));
});
afterAll(async () => {
  for (const o of others) await o.close();
  await svc?.close();
  await s3?.close();
});

/** Another app instance (its own empty data directory) on the same database, configured by `env`. */
async function anotherInstance(env: Record<string, string>, log?: { write(line: string): void }): Promise<TestService> {
  const other = await startService(env, { ...svc.database, close: async () => undefined }, log ? { log } : {});
  others.push(other);
  return other;
}

/** A real PNG header followed by bytes unique to this call, so each test stores new content. */
const PNG_HEAD = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const uniquePng = () => Buffer.concat([PNG_HEAD, randomBytes(200)]);
const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");
const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

async function upload(on: TestService, c: Client, bytes: Buffer) {
  const res = await fetch(`${on.url}/api/v1/files?locationId=${loc}`, {
    method: "POST",
    headers: { origin: on.config.publicUrl.origin, cookie: cookieOf(c), "content-type": "application/octet-stream" },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: (await res.json()) as { id: string; size: number; mime: string } };
}

async function download(on: TestService, c: Client, id: string) {
  const res = await fetch(`${on.url}/api/v1/files/${id}`, { headers: { cookie: cookieOf(c) } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("files on S3-compatible storage", () => {
  test("an upload lands in the bucket under its sha256, not on this server's disk; the download has the same bytes and headers", async () => {
    const bytes = uniquePng();
    const up = await upload(svc, as.member, bytes);
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ mime: "image/png", size: bytes.length });
    expect(await s3.list()).toContainEqual({ key: sha256(bytes), size: bytes.length });
    expect(existsSync(path.join(svc.config.dataDir, "files"))).toBe(false);
    const got = await download(svc, as.viewer, up.body.id);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/png");
    expect(got.headers.get("content-length")).toBe(String(bytes.length));
    expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    expect(got.bytes.equals(bytes)).toBe(true);
  });

  test("the same bytes uploaded again are stored once: a second file record, no second write", async () => {
    const bytes = uniquePng();
    const putsBefore = s3.puts();
    const first = await upload(svc, as.member, bytes);
    expect(s3.puts()).toBe(putsBefore + 1);
    const second = await upload(svc, as.admin, bytes);
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.body.id);
    expect(s3.puts()).toBe(putsBefore + 1);
    expect((await s3.list()).filter((o) => o.key === sha256(bytes))).toHaveLength(1);
    expect((await download(svc, as.member, second.body.id)).bytes.equals(bytes)).toBe(true);
  });

  test("a second app instance configured with the same bucket serves a file uploaded through the first", async () => {
    const bytes = uniquePng();
    const up = await upload(svc, as.member, bytes);
    const other = await anotherInstance(s3.env);
    expect(other.config.dataDir).not.toBe(svc.config.dataDir);
    // Sessions live in the database, so the same cookie works on the other instance.
    const got = await download(other, as.viewer, up.body.id);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-length")).toBe(String(bytes.length));
    expect(got.bytes.equals(bytes)).toBe(true);
    // ...and the other way round.
    const back = uniquePng();
    const theirs = await upload(other, as.member, back);
    expect((await download(svc, as.viewer, theirs.body.id)).bytes.equals(back)).toBe(true);
  });

  test("serving answers with the stored object's size and kind, whatever the record says; a missing object is 404", async () => {
    const bytes = uniquePng();
    const up = await upload(svc, as.member, bytes);
    // The object is replaced behind the service's back by other bytes (a JPEG, shorter).
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(40)]);
    await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: sha256(bytes), Body: jpeg }));
    const got = await download(svc, as.member, up.body.id);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe("image/jpeg");
    expect(got.headers.get("content-length")).toBe(String(jpeg.length));
    expect(got.bytes.equals(jpeg)).toBe(true);
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: sha256(bytes) }));
    expect((await download(svc, as.member, up.body.id)).status).toBe(404);
  });

  test("a storage failure is a 500 whose log line names the S3 error, never the access key id or secret", async () => {
    const up = await upload(svc, as.member, uniquePng());
    const lines: string[] = [];
    const keyId = "AKIAWRONGKEY0000TEST";
    const secret = `never-log-${randomBytes(8).toString("hex")}`;
    const wrong = await anotherInstance({ ...s3.env, SVC_S3_ACCESS_KEY_ID: keyId, SVC_S3_SECRET_ACCESS_KEY: secret }, { write: (l) => void lines.push(l) });
    expect((await download(wrong, as.viewer, up.body.id)).status).toBe(500);
    const log = lines.join("");
    expect(log).toContain("InvalidAccessKeyId");
    expect(log).not.toContain(keyId);
    expect(log).not.toContain(secret);
  });
});

describe("S3 configuration", () => {
  const base = { SVC_SECRET: "x".repeat(32) };

  test("a bucket switches files to S3; the rest has defaults; unset, files stay on disk", () => {
    expect(loadConfig({ ...base }).s3).toBeUndefined();
    expect(loadConfig({ ...base, SVC_S3_BUCKET: "photos" }).s3).toEqual({
      endpoint: undefined,
      bucket: "photos",
      region: "us-east-1",
      credentials: undefined,
      forcePathStyle: false,
    });
  });

  test("other SVC_S3_* variables without a bucket, or half the credentials, stop the server naming the variable", () => {
    expect(() => loadConfig({ ...base, SVC_S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow(/SVC_S3_BUCKET/);
    expect(() => loadConfig({ ...base, SVC_S3_BUCKET: "photos", SVC_S3_ACCESS_KEY_ID: "id" })).toThrow(/SVC_S3_SECRET_ACCESS_KEY/);
  });
});
