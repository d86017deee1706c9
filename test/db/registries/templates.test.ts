/**
 * Templates (spec "Template", POST /api/v1/things/{id}/save-as-template, GET /api/v1/templates,
 * PATCH/DELETE /api/v1/templates/{id}) and things started from one; tags on things. REST and pushed
 * ops alike, every role, the limits at the bound and one past it.
 */
import { eq, sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { errorBodySchema } from "../../../shared/errors.js";
import { pageOf } from "../../../shared/paging.js";
import { templateSchema } from "../../../shared/templates.js";
import { thingDetailSchema } from "../../../shared/things.js";
import { historyEntries, locations, memberships, tags, templates, things, typeFields, types } from "../../../server/db/schema/index.js";
import { apiTest } from "../../support/fixtures.js";
import { snapshotter } from "../../support/hostile.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

const code = (body: unknown) => errorBodySchema.parse(body).error.code;

const test = apiTest
  .extend("db", { scope: "file" }, async ({ svc }) => svc.database.db)
  .extend("account", { scope: "file" }, async ({ db, loc }) => {
    const [l] = await db.select({ accountId: locations.accountId }).from(locations).where(eq(locations.id, loc));
    return l!.accountId;
  })
  /** A type of the account with a text, a money and a secret field. */
  .extend("toolType", { scope: "file" }, async ({ db, account }) => {
    const id = uuidv7();
    await db.insert(types).values({ id, accountId: account, name: "Power tool", icon: "drill" });
    const field = (key: string, kind: "text" | "money", secret = false) => ({ id: uuidv7(), accountId: account, typeId: id, key, label: key, kind, secret });
    await db.insert(typeFields).values([field("warranty", "text"), field("price", "money"), field("pin", "text", true)]);
    return id;
  })
  /** A live tag of the account (made as the tag route would). */
  .extend("tag", { scope: "file" }, async ({ db, account }) => async (name = `Tag ${uuidv7().slice(-6)}`, accountId = account) => {
    const id = uuidv7();
    await db.insert(tags).values({ id, accountId, name });
    return id;
  })
  /** A second location of the owner's account; only the owner is a member. */
  .extend("second", { scope: "file" }, async ({ as }) => {
    const res = await as.owner.post("/api/v1/locations", { name: "Workshop" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  })
  /** The outsider's personal location (another account). */
  .extend("elsewhere", { scope: "file" }, async ({ as }) => (await as.outsider.get("/api/v1/me")).body.locations[0].id as string)
  /** A drill with every value a template may copy, and some it may not. */
  .extend("drill", { scope: "file" }, async ({ db, loc, as, toolType, tag }) => async () => {
    const tagId = await tag();
    const res = await as.member.post(`/api/v1/locations/${loc}/things`, {
      name: "Cordless drill",
      typeId: toolType,
      description: "18 V",
      quantity: 2,
      condition: "good",
      model: "DX-18",
      colour: "yellow",
      serial: "SN-1",
      tagIds: [tagId],
      fields: { warranty: "2 years", price: { amount: "99.00", currency: "EUR" } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    // A secret value in the fields column (as a conversion bug or old data might leave it): never copied.
    await db
      .update(things)
      .set({ fields: sql`${things.fields} || '{"pin": "1234"}'::jsonb` })
      .where(eq(things.id, res.body.id));
    return { id: res.body.id as string, tagId };
  })
  .extend(
    "save",
    { scope: "file" },
    async ({ loc }) =>
      async (c: Client, thingId: string, body: Record<string, unknown> = {}) =>
        c.post(`/api/v1/things/${thingId}/save-as-template`, { name: "Drill kit", locationIds: [loc], ...body }),
  )
  .extend("listed", { scope: "file" }, async () => async (c: Client, locationId: string) => {
    const res = await c.get(`/api/v1/templates?locationId=${locationId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return pageOf(templateSchema).parse(res.body).items;
  })
  .extend("snapshot", { scope: "file" }, async ({ db }) => snapshotter(db));

describe("POST /api/v1/things/:id/save-as-template", () => {
  test("an admin saves a thing: the spec's record, the payload without name, serial, place or secrets", async ({ loc, as, drill, save, toolType }) => {
    const { id, tagId } = await drill();
    const res = await save(as.admin, id, { name: "  Drill kit  " });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("x-txid")).toMatch(/^\d+$/);
    const t = templateSchema.strict().parse(res.body);
    expect(t).toMatchObject({ name: "Drill kit", typeId: toolType, typeIcon: "drill", locations: [{ id: loc, name: expect.any(String) }], rowVersion: 1 });
    expect(t.payload).toEqual({
      typeId: toolType,
      description: "18 V",
      quantity: "2.000",
      condition: "good",
      model: "DX-18",
      colour: "yellow",
      tagIds: [tagId],
      isContainer: false,
      fields: { warranty: "2 years", price: { amount: "99.00", currency: "EUR" } },
    });
    expect(JSON.stringify(t.payload)).not.toMatch(/Cordless|SN-1|1234/);
  });

  test("roles: the owner may, a member and a viewer are 403 (templates are a registry), an outsider 404; nothing changes", async ({
    as,
    drill,
    save,
    snapshot,
  }) => {
    const { id } = await drill();
    expect((await save(as.owner, id)).status).toBe(201);
    const before = await snapshot();
    const member = await save(as.member, id);
    expect(member.status).toBe(403);
    expect(code(member.body)).toBe("forbidden");
    expect((await save(as.viewer, id)).status).toBe(403);
    expect((await save(as.outsider, id)).status).toBe(404);
    expect((await save(as.admin, uuidv7())).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  test("name 1 to 80 characters (trimmed): 80 passes, 81 and blank are 400 and change nothing", async ({ as, drill, save, snapshot }) => {
    const { id } = await drill();
    expect((await save(as.admin, id, { name: "n".repeat(80) })).status).toBe(201);
    const before = await snapshot();
    for (const name of ["n".repeat(81), "   ", ""]) {
      const res = await save(as.admin, id, { name });
      expect(res.status).toBe(400);
      expect(code(res.body)).toBe("validation_failed");
    }
    expect(await snapshot()).toEqual(before);
  });

  test("locationIds 1 to 100: 100 passes, 101, none or a repeat are 400 and change nothing", async ({ db, account, loc, as, drill, save, snapshot }) => {
    // 99 more locations of the owner's account, the owner a member of each.
    const more = Array.from({ length: 100 }, (_, i) => ({ id: uuidv7(), accountId: account, name: `Shed ${i}` }));
    await db.insert(locations).values(more);
    await db.insert(memberships).values(more.map((l) => ({ id: uuidv7(), locationId: l.id, userId: as.owner.userId, role: "owner" as const })));
    const { id } = await drill();
    const hundred = [loc, ...more.slice(0, 99).map((l) => l.id)];
    const ok = await save(as.owner, id, { locationIds: hundred });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.locations).toHaveLength(100);
    const before = await snapshot();
    for (const locationIds of [[...hundred, more[99]!.id], [], [loc, loc]]) {
      const res = await save(as.owner, id, { locationIds });
      expect(res.status).toBe(400);
      expect(code(res.body)).toBe("validation_failed");
    }
    // PATCH keeps the same limit.
    expect((await as.owner.patch(`/api/v1/templates/${ok.body.id}`, { rowVersion: 1, locationIds: [...hundred, more[99]!.id] })).status).toBe(400);
    expect(await snapshot()).toEqual(before);
    expect((await as.owner.patch(`/api/v1/templates/${ok.body.id}`, { rowVersion: 1, locationIds: hundred.slice(1) })).status).toBe(200);
  });

  test("a location the saver cannot see is 404; one it sees of another account is 400; another location of the account passes", async ({
    db,
    as,
    loc,
    second,
    elsewhere,
    drill,
    save,
  }) => {
    const { id } = await drill();
    const hidden = await save(as.admin, id, { locationIds: [loc, elsewhere] });
    expect(hidden.status).toBe(404);
    // The owner is let into the outsider's location: now visible, but of another account.
    await db.insert(memberships).values({ id: uuidv7(), locationId: elsewhere, userId: as.owner.userId, role: "viewer" });
    const other = await save(as.owner, id, { locationIds: [loc, elsewhere] });
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: "validation_failed", details: { field: "locationIds" } });
    const both = await save(as.owner, id, { locationIds: [loc, second] });
    expect(both.status, JSON.stringify(both.body)).toBe(201);
    expect(both.body.locations.map((l: { id: string }) => l.id)).toEqual([loc, second]);
    // The admin is no member of the second location: it sees only the first in the record.
    const seen = (await as.admin.get(`/api/v1/templates?locationId=${loc}`)).body.items.find((t: { id: string }) => t.id === both.body.id);
    expect(seen.locations.map((l: { id: string }) => l.id)).toEqual([loc]);
  });
});

describe("GET /api/v1/templates", () => {
  test("lists the templates offered in the location, for every role there; money hidden from a viewer where the location hides it", async ({
    db,
    loc,
    second,
    as,
    drill,
    save,
    listed,
  }) => {
    const { id } = await drill();
    const here = (await save(as.owner, id, { name: "Here" })).body.id as string;
    const there = (await save(as.owner, id, { name: "There", locationIds: [second] })).body.id as string;
    const ids = (items: { id: string }[]) => items.map((t) => t.id);
    expect(ids(await listed(as.member, loc))).toContain(here);
    expect(ids(await listed(as.member, loc))).not.toContain(there);
    expect(ids(await listed(as.owner, second))).toContain(there);
    expect(ids(await listed(as.owner, second))).not.toContain(here);
    const viewerSees = (await listed(as.viewer, loc)).find((t) => t.id === here)!;
    expect(viewerSees.payload.fields).toEqual({ warranty: "2 years" });
    expect((await listed(as.member, loc)).find((t) => t.id === here)!.payload.fields).toMatchObject({ price: { amount: "99.00", currency: "EUR" } });
    await db.update(locations).set({ viewersSeeMoney: true }).where(eq(locations.id, loc));
    expect((await listed(as.viewer, loc)).find((t) => t.id === here)!.payload.fields).toHaveProperty("price");
    await db.update(locations).set({ viewersSeeMoney: false }).where(eq(locations.id, loc));
    // The templates shape (SH2): the viewer's copy has no money field, the member's has it.
    const shaped = async (c: Client) => {
      const res = await c.get("/api/v1/sync/shape/templates?offset=-1");
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const rows = (res.body as { value?: { id: string; payload: string } }[]).flatMap((m) => (m.value?.id === here ? [m.value] : []));
      return JSON.parse(rows[0]!.payload) as { fields: Record<string, unknown> };
    };
    expect((await shaped(as.viewer)).fields).toEqual({ warranty: "2 years" });
    expect((await shaped(as.member)).fields).toHaveProperty("price");
    // Not a member of the location: 404, as any location it cannot see.
    expect((await as.outsider.get(`/api/v1/templates?locationId=${loc}`)).status).toBe(404);
    expect((await as.member.get(`/api/v1/templates?locationId=${second}`)).status).toBe(404);
    expect((await as.member.get(`/api/v1/templates`)).status).toBe(400);
  });
});

describe("PATCH and DELETE /api/v1/templates/:id", () => {
  test("an admin renames with the rowVersion it saw; stale is 409; member 403, outsider 404", async ({ as, drill, save, snapshot }) => {
    const { id } = await drill();
    const t = (await save(as.owner, id)).body.id as string;
    const res = await as.admin.patch(`/api/v1/templates/${t}`, { rowVersion: 1, name: "Drill set" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(templateSchema.parse(res.body)).toMatchObject({ name: "Drill set", rowVersion: 2 });
    const before = await snapshot();
    const stale = await as.admin.patch(`/api/v1/templates/${t}`, { rowVersion: 1, name: "Old" });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "version_conflict", details: { rowVersion: 2 } });
    expect((await as.member.patch(`/api/v1/templates/${t}`, { rowVersion: 2, name: "Mine" })).status).toBe(403);
    expect((await as.viewer.delete(`/api/v1/templates/${t}`, { rowVersion: 2 })).status).toBe(403);
    expect((await as.outsider.patch(`/api/v1/templates/${t}`, { rowVersion: 2, name: "Theirs" })).status).toBe(404);
    expect((await as.outsider.delete(`/api/v1/templates/${t}`, { rowVersion: 2 })).status).toBe(404);
    expect((await as.admin.patch(`/api/v1/templates/${t}`, { rowVersion: 2 })).status).toBe(400);
    expect((await as.admin.patch(`/api/v1/templates/${t}`, { rowVersion: 2, name: "x".repeat(81) })).status).toBe(400);
    expect(await snapshot()).toEqual(before);
    expect((await as.admin.patch(`/api/v1/templates/${t}`, { rowVersion: 2, name: "x".repeat(80) })).status).toBe(200);
  });

  test("changing locationIds keeps the locations the admin cannot see", async ({ db, loc, second, as, drill, save }) => {
    const { id } = await drill();
    const t = (await save(as.owner, id, { locationIds: [loc, second] })).body.id as string;
    const res = await as.admin.patch(`/api/v1/templates/${t}`, { rowVersion: 1, locationIds: [loc] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await db.select({ locationIds: templates.locationIds }).from(templates).where(eq(templates.id, t));
    expect(row!.locationIds.sort()).toEqual([loc, second].sort());
    // The owner sees both and may take the second away.
    expect((await as.owner.patch(`/api/v1/templates/${t}`, { rowVersion: 2, locationIds: [loc] })).body.locations).toHaveLength(1);
  });

  test("delete: a tombstone, gone from the list; deleting again is 404", async ({ loc, as, drill, save, listed }) => {
    const { id } = await drill();
    const t = (await save(as.owner, id)).body.id as string;
    const res = await as.admin.delete(`/api/v1/templates/${t}`, { rowVersion: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: t, rowVersion: 2 });
    expect((await listed(as.member, loc)).map((x) => x.id)).not.toContain(t);
    expect((await as.admin.delete(`/api/v1/templates/${t}`, { rowVersion: 2 })).status).toBe(404);
  });
});

describe("a new thing from a template", () => {
  test("REST create and pushed capture take the template's values; the args win, fields merge key by key", async ({ loc, as, drill, save, toolType }) => {
    const { id, tagId } = await drill();
    const t = (await save(as.admin, id)).body.id as string;
    const made = await as.member.post(`/api/v1/locations/${loc}/things`, {
      templateId: t,
      name: "Second drill",
      colour: null,
      quantity: 1,
      fields: { warranty: "5 years" },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(thingDetailSchema.parse(made.body)).toMatchObject({
      name: "Second drill",
      type: { id: toolType },
      description: "18 V",
      quantity: 1,
      condition: "good",
      model: "DX-18",
      colour: null,
      serial: null,
      tagIds: [tagId],
      fields: { warranty: "5 years", price: { amount: "99.00", currency: "EUR" } },
    });
    const capture = uuidv7();
    const pushed = await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id: capture, templateId: t } })]);
    expect(pushed.body.results[0].status, JSON.stringify(pushed.body)).toBe("applied");
    const captured = (await as.member.get(`/api/v1/things/${capture}`)).body;
    expect(captured).toMatchObject({ name: null, lifecycle: "draft", model: "DX-18", quantity: 2, tagIds: [tagId], fields: { warranty: "2 years" } });
  });

  test("a template offered in A and not B: capture in B with it is 404 template (a sync_drop); another account's template is 404 too", async ({
    loc,
    second,
    as,
    elsewhere,
    drill,
    save,
  }) => {
    const { id } = await drill();
    const t = (await save(as.owner, id)).body.id as string;
    const o = op({ name: "thing.capture", locationId: second, args: { id: uuidv7(), templateId: t } });
    const res = await push(as.owner, [o]);
    expect(res.body.results[0]).toMatchObject({ status: "dropped", reason: "not_found", inboxItemId: expect.any(String) });
    const drops = (await as.owner.get(`/api/v1/inbox?locationId=${second}&kind=sync_drop`)).body.items as { id: string }[];
    expect(drops.map((d) => d.id)).toContain(res.body.results[0].inboxItemId);
    expect((await as.owner.get(`/api/v1/things/${o.args.id as string}`)).status).toBe(404);
    // The outsider's own template, in its own location, named in ours.
    const theirs = await as.outsider.post(`/api/v1/locations/${elsewhere}/things`, { name: "Saw" });
    const theirTemplate = await as.outsider.post(`/api/v1/things/${theirs.body.id}/save-as-template`, { name: "Saw", locationIds: [elsewhere] });
    expect(theirTemplate.status, JSON.stringify(theirTemplate.body)).toBe(201);
    const foreign = await as.member.post(`/api/v1/locations/${loc}/things`, { templateId: theirTemplate.body.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.message).toMatch(/template/);
    const deleted = await as.owner.delete(`/api/v1/templates/${t}`, { rowVersion: 1 });
    expect(deleted.status).toBe(200);
    expect((await as.member.post(`/api/v1/locations/${loc}/things`, { templateId: t })).status).toBe(404);
  });

  test("a tag deleted since the template was saved is left out, not refused", async ({ db, loc, as, drill, save }) => {
    const { id, tagId } = await drill();
    const t = (await save(as.admin, id)).body.id as string;
    await db.update(tags).set({ deletedAt: new Date() }).where(eq(tags.id, tagId));
    const made = await as.member.post(`/api/v1/locations/${loc}/things`, { templateId: t });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.tagIds).toEqual([]);
  });
});

describe("template ops pushed", () => {
  test("create, update and delete apply; a member's create is dropped forbidden into a sync_drop item", async ({ db, loc, as, drill }) => {
    const { id } = await drill();
    const t = uuidv7();
    const res = await push(as.admin, [
      op({ name: "template.create", locationId: loc, args: { id: t, thingId: id, name: "Pushed kit", locationIds: [loc] } }),
      op({ name: "template.update", locationId: loc, args: { id: t, patch: { name: "Pushed kit 2" } }, baseVersion: 1 }),
    ]);
    expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(["applied", "applied"]);
    const [row] = await db.select().from(templates).where(eq(templates.id, t));
    expect(row).toMatchObject({ name: "Pushed kit 2", rowVersion: 2, locationIds: [loc] });
    // A stale rename merges with a change of the other field (VE3): locationIds is one field.
    const stale = await push(as.owner, [op({ name: "template.update", locationId: loc, args: { id: t, patch: { locationIds: [loc] } }, baseVersion: 1 })]);
    expect(stale.body.results[0].status).toBe("applied");
    const clash = await push(as.owner, [op({ name: "template.update", locationId: loc, args: { id: t, patch: { name: "Late" } }, baseVersion: 1 })]);
    expect(clash.body.results[0]).toMatchObject({ status: "dropped", reason: "stale" });
    const del = await push(as.admin, [op({ name: "template.delete", locationId: loc, args: { id: t }, baseVersion: 3 })]);
    expect(del.body.results[0].status).toBe("applied");
    const history = await db.select({ action: historyEntries.action }).from(historyEntries).where(eq(historyEntries.entityId, t));
    expect(history.map((h) => h.action).sort()).toEqual(["template.created", "template.deleted", "template.updated", "template.updated"]);

    const refused = await push(as.member, [
      op({ name: "template.create", locationId: loc, args: { id: uuidv7(), thingId: id, name: "Member kit", locationIds: [loc] } }),
    ]);
    expect(refused.body.results[0]).toMatchObject({ status: "dropped", reason: "forbidden", inboxItemId: expect.any(String) });
    const items = (await as.member.get(`/api/v1/inbox?locationId=${loc}&kind=sync_drop`)).body.items as { id: string }[];
    expect(items.map((i) => i.id)).toContain(refused.body.results[0].inboxItemId);
  });
});

describe("tags on things", () => {
  test("create and update take live tags of the account; the detail and the list show them; the list filters by tagId", async ({ db, loc, as, tag }) => {
    const [a, b] = [await tag("Garden"), await tag("Loaned")];
    const made = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Rake", tagIds: [a] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.tagIds).toEqual([a]);
    const changed = await as.member.patch(`/api/v1/things/${made.body.id}`, { rowVersion: 1, tagIds: [a, b] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.tagIds).toEqual([a, b]);
    const list = (await as.viewer.get(`/api/v1/locations/${loc}/things?tagId=${b}`)).body.items as { id: string; tagIds: string[] }[];
    expect(list).toEqual([expect.objectContaining({ id: made.body.id, tagIds: [a, b] })]);
    const [event] = await db
      .select({ diff: historyEntries.diff })
      .from(historyEntries)
      .where(sql`${historyEntries.entityId} = ${made.body.id} AND ${historyEntries.action} = 'thing.updated'`);
    expect(event!.diff.tagIds).toEqual({ class: "plain", changed: true, hidden: false });
  });

  test("VE3 a stale pushed update merges tagIds as one field: beside another field it applies, over a later tag change it is stale", async ({
    loc,
    as,
    tag,
  }) => {
    const [a, b] = [await tag("Red"), await tag("Blue")];
    const made = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Kettle" });
    const id = made.body.id as string;
    const first = await push(as.member, [op({ name: "thing.update", locationId: loc, args: { id, patch: { tagIds: [a] } }, baseVersion: 1 })]);
    const beside = await push(as.admin, [op({ name: "thing.update", locationId: loc, args: { id, patch: { colour: "steel" } }, baseVersion: 1 })]);
    const over = await push(as.admin, [op({ name: "thing.update", locationId: loc, args: { id, patch: { tagIds: [b] } }, baseVersion: 1 })]);
    expect([first, beside, over].map((r) => r.body.results[0].status)).toEqual(["applied", "applied", "dropped"]);
    expect(over.body.results[0].reason).toBe("stale");
    expect((await as.member.get(`/api/v1/things/${id}`)).body).toMatchObject({ tagIds: [a], colour: "steel", rowVersion: 3 });
  });

  test("an unknown tag, a deleted one or another account's is 404 tag; more than 50 or a repeat is 400; nothing changes", async ({
    db,
    loc,
    as,
    tag,
    elsewhere,
    snapshot,
  }) => {
    const [l] = await db.select({ accountId: locations.accountId }).from(locations).where(eq(locations.id, elsewhere));
    const foreign = await tag("Theirs", l!.accountId);
    const gone = await tag("Gone");
    await db.update(tags).set({ deletedAt: new Date() }).where(eq(tags.id, gone));
    const fifty = await Promise.all(Array.from({ length: 51 }, (_, i) => tag(`T${i}`)));
    const ok = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Tagged", tagIds: fifty.slice(0, 50) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const before = await snapshot();
    for (const tagIds of [[uuidv7()], [foreign], [gone]]) {
      const res = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Nope", tagIds });
      expect(res.status).toBe(404);
      expect(res.body.error.message).toMatch(/tag/);
      expect((await as.member.patch(`/api/v1/things/${ok.body.id}`, { rowVersion: 1, tagIds })).status).toBe(404);
    }
    for (const tagIds of [fifty, [fifty[0], fifty[0]]]) {
      const res = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Nope", tagIds });
      expect(res.status).toBe(400);
      expect(code(res.body)).toBe("validation_failed");
    }
    const pushed = await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id: uuidv7(), tagIds: [foreign] } })]);
    expect(pushed.body.results[0]).toMatchObject({ status: "dropped", reason: "not_found" });
    const after = await snapshot();
    // Only the sync_drop item (and the op's record) of the refused push.
    expect(Object.keys(after).filter((k) => after[k] !== before[k] && !/^(inbox_items|sync_ops|sync_log)\./.test(k))).toEqual([]);
  });
});
