import { expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { fileSchema } from "../../../shared/files.js";
import type { TestService } from "../../support/app.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

/** A tiny but real PNG (1x1, transparent). */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

async function upload(svc: TestService, c: Client, bytes: Buffer, query: string, type = "image/png") {
  const res = await fetch(`${svc.url}/api/v1/files?${query}`, {
    method: "POST",
    headers: { origin: svc.config.publicUrl.origin, cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; "), "content-type": type },
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test("a member uploads a photo under an id made on the device; a retry answers the same file", async ({ svc, loc, as }) => {
  const id = uuidv7();
  const first = await upload(svc, as.member, PNG, `locationId=${loc}&id=${id}`);
  expect(first.status).toBe(201);
  expect(fileSchema.parse(first.body)).toMatchObject({ id, mime: "image/png", size: PNG.length });
  const again = await upload(svc, as.member, PNG, `locationId=${loc}&id=${id}`);
  expect(again.status).toBe(201);
  const got = await fetch(`${svc.url}/api/v1/files/${id}`, { headers: { cookie: [...as.viewer.cookies].map(([k, v]) => `${k}=${v}`).join("; ") } });
  expect(got.status).toBe(200);
  expect(got.headers.get("content-type")).toBe("image/png");
  expect(got.headers.get("x-content-type-options")).toBe("nosniff");
  expect(Buffer.from(await got.arrayBuffer()).equals(PNG)).toBe(true);
});

test("the kind comes from the bytes: a script sent as image/png is refused with 415", async ({ svc, loc, as }) => {
  const res = await upload(svc, as.member, Buffer.from("<script>alert(1)</script>"), `locationId=${loc}`, "image/png");
  expect(res.status).toBe(415);
  expect((res.body as { error: { code: string } }).error.code).toBe("unsupported_media_type");
});

test("a viewer cannot upload, an outsider cannot read", async ({ svc, loc, as }) => {
  expect((await upload(svc, as.viewer, PNG, `locationId=${loc}`)).status).toBe(403);
  expect((await upload(svc, as.outsider, PNG, `locationId=${loc}`)).status).toBe(404);
  const mine = await upload(svc, as.member, PNG, `locationId=${loc}`);
  expect((await as.outsider.get(`/api/v1/files/${String(mine.body.id)}`)).status).toBe(404);
});

test("a capture may carry photos uploaded before it; one not uploaded yet drops the op (kept in the inbox)", async ({ svc, loc, as }) => {
  const photo = await upload(svc, as.member, PNG, `locationId=${loc}`);
  const id = uuidv7();
  const ok = await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id, name: "Shelf photo", photoFileIds: [photo.body.id] } })]);
  expect(ok.body.results[0].status).toBe("applied");
  const drafts = (await as.admin.get(`/api/v1/inbox?locationId=${loc}&kind=draft`)).body.items as { thing: { id: string; photos: { fileId: string }[] } }[];
  expect((await as.member.get(`/api/v1/things/${id}`)).body.thumbUrl).toBe(`/api/v1/files/${String(photo.body.id)}/thumb`);
  expect(drafts.find((d) => d.thing.id === id)?.thing.photos).toEqual([{ fileId: photo.body.id, thumbUrl: `/api/v1/files/${String(photo.body.id)}/thumb` }]);
  const missing = await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id: uuidv7(), photoFileIds: [uuidv7()] } })]);
  expect(missing.body.results[0]).toMatchObject({ status: "dropped", reason: "not_found" });
});
