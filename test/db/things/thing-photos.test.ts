/**
 * A thing's photos (server/modules/things/photos.ts): added, removed and the cover chosen through
 * push and REST, checked for role, version and the file's location; a capture's photos become the
 * thing's; the thing detail lists them for a second device.
 */
import { expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { thingDetailSchema } from "../../../shared/things.js";
import type { TestService } from "../../support/app.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

/** A tiny but real PNG (1x1). */
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
/** The smallest PDF the server takes as one (a receipt page, never a photo). */
const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

async function upload(svc: TestService, c: Client, locationId: string, bytes = PNG): Promise<string> {
  const res = await fetch(`${svc.url}/api/v1/files?locationId=${locationId}&id=${uuidv7()}`, {
    method: "POST",
    headers: {
      origin: svc.config.publicUrl.origin,
      cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
      "content-type": "application/octet-stream",
    },
    body: new Uint8Array(bytes),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function newThing(c: Client, loc: string, name: string): Promise<string> {
  const id = uuidv7();
  const res = await push(c, [op({ name: "thing.create", locationId: loc, args: { id, name } })]);
  expect(res.body.results[0].status).toBe("applied");
  return id;
}

const thingOf = async (c: Client, id: string) => thingDetailSchema.parse((await c.get(`/api/v1/things/${id}`)).body);

test("a photo added to an existing thing becomes its cover, a second one joins the gallery, and a viewer sees both", async ({ svc, loc, as }) => {
  const id = await newThing(as.member, loc, "Bench vice");
  const [a, b] = [await upload(svc, as.member, loc), await upload(svc, as.member, loc)];
  const res = await push(as.member, [
    op({ name: "thing.photo.add", locationId: loc, args: { id, fileId: a }, baseVersion: 1 }),
    op({ name: "thing.photo.add", locationId: loc, args: { id, fileId: b }, baseVersion: 2 }),
  ]);
  expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
  const seen = await thingOf(as.viewer, id);
  expect(seen.photos).toEqual([
    { fileId: a, url: `/api/v1/files/${a}`, thumbUrl: `/api/v1/files/${a}/thumb`, isCover: true },
    { fileId: b, url: `/api/v1/files/${b}`, thumbUrl: `/api/v1/files/${b}/thumb`, isCover: false },
  ]);
  expect(seen.thumbUrl).toBe(`/api/v1/files/${a}/thumb`);
  expect(seen.rowVersion).toBe(3);
  // The viewer may look at the photo itself and its thumbnail.
  expect((await as.viewer.get(`/api/v1/files/${b}`)).status).toBe(200);
});

test("choosing the cover and removing the cover: the next photo becomes the cover, the last removed leaves none", async ({ svc, loc, as }) => {
  const id = await newThing(as.member, loc, "Camera");
  const [a, b] = [await upload(svc, as.member, loc), await upload(svc, as.member, loc)];
  await push(as.member, [
    op({ name: "thing.photo.add", locationId: loc, args: { id, fileId: a } }),
    op({ name: "thing.photo.add", locationId: loc, args: { id, fileId: b } }),
    op({ name: "thing.photo.cover", locationId: loc, args: { id, fileId: b }, baseVersion: 3 }),
  ]);
  expect((await thingOf(as.member, id)).thumbUrl).toBe(`/api/v1/files/${b}/thumb`);
  await push(as.member, [op({ name: "thing.photo.remove", locationId: loc, args: { id, fileId: b }, baseVersion: 4 })]);
  const left = await thingOf(as.member, id);
  expect(left.photos.map((p) => [p.fileId, p.isCover])).toEqual([[a, true]]);
  await push(as.member, [op({ name: "thing.photo.remove", locationId: loc, args: { id, fileId: a }, baseVersion: 5 })]);
  const none = await thingOf(as.member, id);
  expect(none.photos).toEqual([]);
  expect(none.thumbUrl).toBeNull();
  // The file record stays: history can bring the photo back.
  expect((await as.member.get(`/api/v1/files/${a}`)).status).toBe(200);
});

test("VE7 two devices that each added a photo offline both keep theirs; a stale cover choice merges only if the cover did not change", async ({
  svc,
  loc,
  as,
}) => {
  const id = await newThing(as.member, loc, "Toolbox");
  const [a, b, c] = [await upload(svc, as.member, loc), await upload(svc, as.admin, loc), await upload(svc, as.member, loc)];
  // Both devices saw version 1.
  expect((await push(as.member, [op({ name: "thing.photo.add", locationId: loc, args: { id, fileId: a }, baseVersion: 1 })])).body.results[0].status).toBe(
    "applied",
  );
  expect((await push(as.admin, [op({ name: "thing.photo.add", locationId: loc, args: { id, fileId: b }, baseVersion: 1 })])).body.results[0].status).toBe(
    "applied",
  );
  expect((await thingOf(as.member, id)).photos.map((p) => p.fileId)).toEqual([a, b]);
  // The cover changed since version 3 (c added as cover); a cover choice made at version 3 is stale.
  await push(as.member, [op({ name: "thing.photo.add", locationId: loc, args: { id, fileId: c, cover: true }, baseVersion: 3 })]);
  const stale = await push(as.admin, [op({ name: "thing.photo.cover", locationId: loc, args: { id, fileId: b }, baseVersion: 3 })]);
  expect(stale.body.results[0]).toMatchObject({ status: "dropped", reason: "stale" });
  expect((await thingOf(as.member, id)).thumbUrl).toBe(`/api/v1/files/${c}/thumb`);
  // REST is strict (VE6): a stale rowVersion is 409 and changes nothing.
  const strict = await as.member.post(`/api/v1/things/${id}/photos`, { fileId: a, rowVersion: 1 });
  expect(strict.status).toBe(409);
  expect(strict.body.error.code).toBe("version_conflict");
});

test("a viewer is refused, a file of another location reads as missing, a PDF is not a photo, and nothing changes", async ({ svc, loc, as }) => {
  const id = await newThing(as.member, loc, "Lamp");
  const mine = await upload(svc, as.member, loc);
  const elsewhere = (await as.outsider.get("/api/v1/me")).body.locations[0].id as string;
  const theirs = await upload(svc, as.outsider, elsewhere);
  const pdf = await upload(svc, as.member, loc, PDF);
  const viewer = await push(as.viewer, [op({ name: "thing.photo.add", locationId: loc, args: { id, fileId: mine }, baseVersion: 1 })]);
  expect(viewer.body.results[0]).toMatchObject({ status: "dropped", reason: "forbidden" });
  const foreign = await push(as.member, [op({ name: "thing.photo.add", locationId: loc, args: { id, fileId: theirs }, baseVersion: 1 })]);
  expect(foreign.body.results[0]).toMatchObject({ status: "dropped", reason: "not_found" });
  const notPhoto = await as.member.post(`/api/v1/things/${id}/photos`, { fileId: pdf, rowVersion: 1 });
  expect(notPhoto.status).toBe(400);
  const missing = await as.member.delete(`/api/v1/things/${id}/photos/${mine}`, { rowVersion: 1 });
  expect(missing.status).toBe(404);
  expect((await as.viewer.request("PUT", `/api/v1/things/${id}/cover`, { fileId: mine, rowVersion: 1 })).status).toBe(403);
  const after = await thingOf(as.member, id);
  expect(after.photos).toEqual([]);
  expect(after.rowVersion).toBe(1);
});

test("REST adds, chooses the cover and removes, each answering the thing; history names each change", async ({ svc, loc, as }) => {
  const id = await newThing(as.member, loc, "Kettle");
  const [a, b] = [await upload(svc, as.member, loc), await upload(svc, as.member, loc)];
  const added = await as.member.post(`/api/v1/things/${id}/photos`, { fileId: a, rowVersion: 1 });
  expect(added.status).toBe(200);
  expect(thingDetailSchema.parse(added.body).photos.map((p) => p.fileId)).toEqual([a]);
  await as.member.post(`/api/v1/things/${id}/photos`, { fileId: b, rowVersion: 2 });
  const cover = await as.member.request("PUT", `/api/v1/things/${id}/cover`, { fileId: b, rowVersion: 3 });
  expect(thingDetailSchema.parse(cover.body).thumbUrl).toBe(`/api/v1/files/${b}/thumb`);
  const removed = await as.member.delete(`/api/v1/things/${id}/photos/${a}`, { rowVersion: 4 });
  expect(thingDetailSchema.parse(removed.body).photos.map((p) => [p.fileId, p.isCover])).toEqual([[b, true]]);
  const history = (await as.member.get(`/api/v1/things/${id}/history`)).body.items as { summary: string }[];
  expect(history.map((h) => h.summary).slice(0, 4)).toEqual([
    "Removed a photo of Kettle",
    "Chose the cover photo of Kettle",
    "Added a photo of Kettle",
    "Added a photo of Kettle",
  ]);
});

test("a capture's photos are the thing's, the first its cover", async ({ svc, loc, as }) => {
  const [a, b] = [await upload(svc, as.member, loc), await upload(svc, as.member, loc)];
  const id = uuidv7();
  await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id, name: "Shelf", photoFileIds: [a, b] } })]);
  const seen = await thingOf(as.viewer, id);
  expect(seen.photos.map((p) => [p.fileId, p.isCover])).toEqual([
    [a, true],
    [b, false],
  ]);
});

test("merging a capture into a thing brings its photos along; the thing keeps its own cover", async ({ svc, loc, as }) => {
  const id = await newThing(as.member, loc, "Sander");
  const [own, captured] = [await upload(svc, as.member, loc), await upload(svc, as.member, loc)];
  const draft = uuidv7();
  await push(as.member, [
    op({ name: "thing.photo.add", locationId: loc, args: { id, fileId: own } }),
    op({ name: "thing.capture", locationId: loc, args: { id: draft, name: "Sander again", photoFileIds: [captured] } }),
  ]);
  const merged = await push(as.member, [op({ name: "inbox.merge", locationId: loc, args: { id: draft, into: id } })]);
  expect(merged.body.results[0].status).toBe("applied");
  const seen = await thingOf(as.member, id);
  expect(seen.photos.map((p) => [p.fileId, p.isCover])).toEqual([
    [own, true],
    [captured, false],
  ]);
});
