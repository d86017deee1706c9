/**
 * "My own captures go straight in" (issue 19, point 7): a person's setting in one location, read by
 * the server when a capture arrives, so a capture made offline and pushed later goes in too, with
 * the history an accepted draft has; and "accept all" as a batch of single accepts (PU4, DR2).
 */
import { expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { historyEntrySchema } from "../../../shared/history.js";
import { inboxItemSchema } from "../../../shared/inbox.js";
import { pageOf } from "../../../shared/paging.js";
import { op, push } from "../../support/push.js";
import { apiTest as test } from "../../support/fixtures.js";

const settings = (loc: string) => `/api/v1/locations/${loc}/capture-settings`;

test("the setting is off until the person turns it on, and it is theirs alone", async ({ loc, as }) => {
  expect((await as.member.get(settings(loc))).body).toEqual({ straightIn: false });
  const put = await as.member.request("PUT", settings(loc), { straightIn: true });
  expect(put.status).toBe(200);
  expect(put.body).toEqual({ straightIn: true });
  expect((await as.member.get(settings(loc))).body).toEqual({ straightIn: true });
  // Another member of the same location still has it off.
  expect((await as.admin.get(settings(loc))).body).toEqual({ straightIn: false });
  expect((await as.member.request("PUT", settings(loc), { straightIn: false })).body).toEqual({ straightIn: false });
});

test("a viewer cannot turn it on, an outsider does not see the location, bad input changes nothing", async ({ loc, as }) => {
  expect((await as.viewer.get(settings(loc))).body).toEqual({ straightIn: false });
  const viewer = await as.viewer.request("PUT", settings(loc), { straightIn: true });
  expect(viewer.status).toBe(403);
  expect(viewer.body.error.code).toBe("forbidden");
  expect((await as.outsider.get(settings(loc))).status).toBe(404);
  expect((await as.outsider.request("PUT", settings(loc), { straightIn: true })).status).toBe(404);
  const bad = await as.admin.request("PUT", settings(loc), { straightIn: "yes" });
  expect(bad.status).toBe(400);
  expect((await as.admin.request("PUT", settings(loc), { straightIn: true, other: 1 })).status).toBe(400);
  expect((await as.admin.get(settings(loc))).body).toEqual({ straightIn: false });
});

test("with the setting on, a capture pushed later goes straight in: active, no open item, history of an accepted draft", async ({ loc, as }) => {
  // Made "offline" an hour ago, before the setting was on; the server applies the setting it has when the op arrives.
  const id = uuidv7();
  const capture = op({ name: "thing.capture", locationId: loc, args: { id, name: "Garden hose" } });
  capture.at = new Date(Date.now() - 3_600_000).toISOString();
  await as.member.request("PUT", settings(loc), { straightIn: true });
  const res = await push(as.member, [capture, op({ name: "thing.update", locationId: loc, args: { id, patch: { description: "green, 20 m" } } })]);
  expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
  expect(res.body.results[0].rowVersion).toBe(2);

  const thing = (await as.admin.get(`/api/v1/things/${id}`)).body;
  expect(thing).toMatchObject({ name: "Garden hose", lifecycle: "active", description: "green, 20 m", rowVersion: 3 });
  const open = pageOf(inboxItemSchema).parse((await as.admin.get(`/api/v1/inbox?locationId=${loc}`)).body).items;
  expect(open.some((i) => i.id === id)).toBe(false);
  const history = pageOf(historyEntrySchema).parse((await as.admin.get(`/api/v1/things/${id}/history`)).body).items;
  expect(history.map((h) => h.summary)).toEqual(expect.arrayContaining([expect.stringMatching(/^Accepted Garden hose from the inbox/)]));
  expect(history.map((h) => h.action)).toEqual(expect.arrayContaining(["thing.created"]));
  await as.member.request("PUT", settings(loc), { straightIn: false });
});

test("another person's captures still wait in the inbox, and so do the member's once the setting is off", async ({ loc, as }) => {
  await as.member.request("PUT", settings(loc), { straightIn: true });
  const admins = uuidv7();
  await push(as.admin, [op({ name: "thing.capture", locationId: loc, args: { id: admins, name: "Admin's box" } })]);
  await as.member.request("PUT", settings(loc), { straightIn: false });
  const members = uuidv7();
  await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id: members, name: "Member's box" } })]);
  const open = pageOf(inboxItemSchema).parse((await as.admin.get(`/api/v1/inbox?locationId=${loc}&kind=draft`)).body).items;
  expect(open.filter((i) => i.id === admins || i.id === members)).toHaveLength(2);
  expect((await as.admin.get(`/api/v1/things/${members}`)).body.lifecycle).toBe("draft");
});

test("PU4/DR2 accept all: one inbox.accept per draft in one push, each checked alone; one already reviewed is kept as a sync_drop", async ({ loc, as }) => {
  const ids = [uuidv7(), uuidv7(), uuidv7()];
  await push(
    as.member,
    ids.map((id, i) => op({ name: "thing.capture", locationId: loc, args: { id, name: `Jar ${i + 1}` } })),
  );
  // Someone else reviews the second one first.
  expect((await as.admin.post(`/api/v1/inbox/${ids[1]}/dismiss`)).status).toBe(200);
  const res = await push(
    as.member,
    ids.map((id) => op({ name: "inbox.accept", locationId: loc, args: { id } })),
  );
  expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "dropped", "applied"]);
  expect(res.body.results[1].reason).toBe("conflict");
  for (const id of [ids[0], ids[2]]) expect((await as.admin.get(`/api/v1/things/${id}`)).body.lifecycle).toBe("active");
  const drops = pageOf(inboxItemSchema).parse((await as.member.get(`/api/v1/inbox?locationId=${loc}&kind=sync_drop`)).body).items;
  expect(drops.find((d) => d.id === res.body.results[1].inboxItemId)?.syncDrop).toMatchObject({ reason: "conflict", op: { name: "inbox.accept" } });
});
