/**
 * Duplicates (issue "inbox-ai"): a thing made or accepted with the serial of another, or the same
 * brand and model in the same place, raises one `duplicate` item about the new thing; the reviewer
 * keeps both or merges. A decided pair is never raised again.
 */
import { expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { inboxItemSchema, type InboxItem } from "../../../shared/inbox.js";
import { pageOf } from "../../../shared/paging.js";
import { op, push } from "../../support/push.js";
import { apiTest } from "../../support/fixtures.js";

const test = apiTest.extend(
  "duplicates",
  { scope: "test" },
  async ({ loc, as }) =>
    async (): Promise<InboxItem[]> =>
      pageOf(inboxItemSchema).parse((await as.admin.get(`/api/v1/inbox?locationId=${loc}&kind=duplicate&limit=200`)).body).items,
);

test("a second thing with the same serial raises one duplicate item naming the first", async ({ loc, as, duplicates }) => {
  const first = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Drill", serial: "SN-77" })).body;
  const second = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Drill (again)", serial: " sn-77 " })).body;
  const items = (await duplicates()).filter((i) => i.thing?.id === second.id);
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ kind: "duplicate", duplicate: { reason: "serial", other: { id: first.id, name: "Drill" } } });
  // The first thing raised nothing (it was alone), and the pair is not raised the other way round.
  expect((await duplicates()).filter((i) => i.thing?.id === first.id)).toHaveLength(0);
});

test("two matching things pushed in one batch raise one item, about the later one", async ({ loc, as, duplicates }) => {
  const [first, second] = [uuidv7(), uuidv7()];
  const res = await push(as.member, [
    op({ name: "thing.create", locationId: loc, args: { id: first, name: "Lamp", serial: "BATCH-1" } }),
    op({ name: "thing.create", locationId: loc, args: { id: second, name: "Lamp 2", serial: "BATCH-1" } }),
  ]);
  expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
  const raised = (await duplicates()).filter((i) => i.thing?.id === first || i.thing?.id === second);
  expect(raised.map((i) => [i.thing!.id, i.duplicate!.other.id])).toEqual([[second, first]]);
});

test("same brand and model in the same place is a duplicate; in another place it is not", async ({ loc, as, duplicates }) => {
  const brand = (await as.admin.post(`/api/v1/locations/${loc}/brands`, { name: `Acme ${uuidv7().slice(-6)}` })).body;
  const shed = (await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Shed" })).body;
  const attic = (await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Attic" })).body;
  const mk = (name: string, placeId: string, model: string) =>
    as.member.post(`/api/v1/locations/${loc}/things`, { name, placeId, brandId: brand.id, model }).then((r) => r.body as { id: string });
  const a = await mk("Saw", shed.id, "X-200");
  const b = await mk("Saw 2", shed.id, "x-200");
  const c = await mk("Saw 3", attic.id, "X-200");
  const items = await duplicates();
  expect(items.filter((i) => i.thing?.id === b.id).map((i) => i.duplicate)).toEqual([
    expect.objectContaining({ reason: "brand_model_place", other: expect.objectContaining({ id: a.id }) }),
  ]);
  expect(items.filter((i) => i.thing?.id === c.id)).toHaveLength(0);
});

test("accepting a captured draft that got the serial of an existing thing raises the item then, once", async ({ loc, as, duplicates }) => {
  const existing = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Kettle", serial: "K-1" })).body;
  const id = uuidv7();
  expect((await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id, name: "Kettle?" } })])).body.results[0].status).toBe("applied");
  expect((await duplicates()).filter((i) => i.thing?.id === id)).toHaveLength(0);
  await as.member.patch(`/api/v1/things/${id}`, { rowVersion: 1, serial: "K-1" });
  const draft = pageOf(inboxItemSchema)
    .parse((await as.admin.get(`/api/v1/inbox?locationId=${loc}&kind=draft&limit=200`)).body)
    .items.find((i) => i.thing?.id === id)!;
  expect((await as.admin.post(`/api/v1/inbox/${draft.id}/accept`)).status).toBe(200);
  const raised = (await duplicates()).filter((i) => i.thing?.id === id);
  expect(raised).toHaveLength(1);
  expect(raised[0]!.duplicate!.other.id).toBe(existing.id);
});

test("merging a duplicate folds the new thing into the other; keeping both is never asked again", async ({ loc, as, duplicates }) => {
  const a = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Ladder", serial: "L-9" })).body;
  const b = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Ladder (new)", serial: "L-9", colour: "grey" })).body;
  const item = (await duplicates()).find((i) => i.thing?.id === b.id)!;
  const res = await as.admin.post(`/api/v1/inbox/${item.id}/merge`, { into: a.id });
  expect(res.status).toBe(200);
  expect(inboxItemSchema.parse(res.body.item)).toMatchObject({ status: "merged" });
  expect((await as.admin.get(`/api/v1/things/${a.id}`)).body).toMatchObject({ name: "Ladder", colour: "grey" });
  expect((await as.admin.get(`/api/v1/things/${b.id}`)).status).toBe(404);
  // The merged-away thing's history is the other's now: its creation is listed there.
  const history = (await as.admin.get(`/api/v1/things/${a.id}/history?limit=50`)).body.items as { action: string; entity: { id: string } }[];
  expect(history.filter((e) => e.entity.id === b.id).map((e) => e.action)).toEqual(expect.arrayContaining(["thing.created"]));
  expect(history.find((e) => e.action === "thing.merged")).toMatchObject({ entity: { id: a.id }, mergedFrom: { id: b.id } });

  // Keep both: accepted, and the same pair does not come back when one of them changes.
  const c = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Ladder (third)", serial: "L-9" })).body;
  const third = (await duplicates()).find((i) => i.thing?.id === c.id)!;
  expect((await as.admin.post(`/api/v1/inbox/${third.id}/accept`)).status).toBe(200);
  const again = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Ladder (fourth)", serial: "L-9" })).body;
  const open = await duplicates();
  expect(open.filter((i) => i.thing?.id === c.id)).toHaveLength(0);
  expect(open.filter((i) => i.thing?.id === again.id)).toHaveLength(1);
});

test("things of another location never match, and a viewer cannot decide", async ({ loc, as, duplicates }) => {
  const own = (await as.outsider.get("/api/v1/locations")).body.items[0].id as string;
  await as.outsider.post(`/api/v1/locations/${own}/things`, { name: "Bike", serial: "B-5" });
  const mine = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Bike", serial: "B-5" })).body;
  expect((await duplicates()).filter((i) => i.thing?.id === mine.id)).toHaveLength(0);
  const twin = (await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Bike 2", serial: "B-5" })).body;
  const item = (await duplicates()).find((i) => i.thing?.id === twin.id)!;
  expect((await as.viewer.post(`/api/v1/inbox/${item.id}/merge`, { into: mine.id })).status).toBe(403);
});
