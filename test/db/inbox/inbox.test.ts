import { expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { historyEntrySchema } from "../../../shared/history.js";
import { inboxItemSchema } from "../../../shared/inbox.js";
import { pageOf } from "../../../shared/paging.js";
import { op, push } from "../../support/push.js";
import { apiTest } from "../../support/fixtures.js";

/** A draft captured by the member; answers its inbox item. */
const test = apiTest.extend("capture", { scope: "file" }, async ({ loc, as }) => async (name: string) => {
  const id = uuidv7();
  const res = await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id, name } })]);
  expect(res.body.results[0].status).toBe("applied");
  const items = pageOf(inboxItemSchema).parse((await as.admin.get(`/api/v1/inbox?locationId=${loc}&kind=draft`)).body).items;
  return items.find((i) => i.thing?.id === id)!;
});

test("accepting a captured draft makes it an active thing and takes it out of the inbox", async ({ loc, as, capture }) => {
  const item = await capture("Blue jacket");
  const res = await as.admin.post(`/api/v1/inbox/${item.id}/accept`);
  expect(res.status).toBe(200);
  expect(inboxItemSchema.parse(res.body.item)).toMatchObject({ status: "accepted", thing: { lifecycle: "active", derivedState: [] } });
  const open = (await as.admin.get(`/api/v1/inbox?locationId=${loc}`)).body.items as { id: string }[];
  expect(open.some((i) => i.id === item.id)).toBe(false);
  expect((await as.admin.post(`/api/v1/inbox/${item.id}/accept`)).status).toBe(409);
});

test("dismissing a draft discards the thing, and its history can undo that", async ({ as, capture }) => {
  const item = await capture("Blurry photo");
  const res = await as.admin.post(`/api/v1/inbox/${item.id}/dismiss`);
  expect(res.body.item.status).toBe("dismissed");
  expect((await as.admin.get(`/api/v1/things/${item.thing!.id}`)).status).toBe(404);
  const [deleted] = (await as.admin.get(`/api/v1/things/${item.thing!.id}/history?kind=deleted`)).body.items;
  expect((await as.admin.post(`/api/v1/history/${deleted.id}/undo`)).status).toBe(200);
  expect((await as.admin.get(`/api/v1/things/${item.thing!.id}`)).body.name).toBe("Blurry photo");
});

test("merging a draft into an existing thing fills what the thing lacked and records mergedFrom", async ({ loc, as, capture }) => {
  const existing = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Cordless drill" });
  const item = await capture("Drill (captured)");
  await as.member.patch(`/api/v1/things/${item.thing!.id}`, { rowVersion: 1, serial: "SN-123", colour: "yellow" });
  const res = await as.admin.post(`/api/v1/inbox/${item.id}/merge`, { into: existing.body.id });
  expect(res.status).toBe(200);
  expect(res.body.item.status).toBe("merged");
  const merged = (await as.admin.get(`/api/v1/things/${existing.body.id}`)).body;
  expect(merged).toMatchObject({ name: "Cordless drill", serial: "SN-123", colour: "yellow" });
  expect((await as.admin.get(`/api/v1/things/${item.thing!.id}`)).status).toBe(404);
  const [event] = pageOf(historyEntrySchema).parse((await as.admin.get(`/api/v1/things/${existing.body.id}/history`)).body).items;
  expect(event).toMatchObject({ action: "thing.merged", mergedFrom: { id: item.thing!.id, name: "Drill (captured)" } });
});

test("a viewer cannot review; an outsider cannot see the item; merging into itself is refused", async ({ as, capture }) => {
  const item = await capture("Lamp");
  expect((await as.viewer.post(`/api/v1/inbox/${item.id}/accept`)).status).toBe(403);
  expect((await as.outsider.post(`/api/v1/inbox/${item.id}/dismiss`)).status).toBe(404);
  expect((await as.admin.post(`/api/v1/inbox/${item.id}/merge`, { into: item.thing!.id })).status).toBe(400);
});

test("inbox review ops can be pushed from a device too", async ({ loc, as, capture }) => {
  const item = await capture("Offline review");
  const res = await push(as.admin, [op({ name: "inbox.accept", locationId: loc, args: { id: item.id } })]);
  expect(res.body.results[0].status).toBe("applied");
});
