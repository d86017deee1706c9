/**
 * Registries over REST: types with parents, groups and fields, place kinds and their fields, brands
 * and tags; every limit at its bound and one past it (400, nothing changed); who may write.
 */
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { errorBodySchema } from "../../../shared/errors.js";
import { brandSchema, placeKindSchema, tagSchema, typeFieldSchema, typeSchema, type Type } from "../../../shared/registries.js";
import { apiTest } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";

const code = (body: unknown) => errorBodySchema.parse(body).error.code;

const test = apiTest
  /** A new type made by the owner; answers the record. */
  .extend("type", { scope: "file" }, async ({ loc, as }) => async (body: Record<string, unknown>, c: Client = as.owner) => {
    const res = await c.post(`/api/v1/locations/${loc}/types`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return typeSchema.parse(res.body);
  })
  /** The account's types as the list shows them. */
  .extend("types", { scope: "file" }, async ({ loc, as }) => async (c: Client = as.owner) => {
    const res = await c.get(`/api/v1/locations/${loc}/types`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.items as Type[];
  });

describe("types", () => {
  test("an admin creates a type; the list shows it with the built-ins; the answer carries x-txid", async ({ loc, as, types }) => {
    const res = await as.admin.post(`/api/v1/locations/${loc}/types`, { name: "  Power tool ", icon: "drill", containerByDefault: false });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get("x-txid")).toMatch(/^\d+$/);
    const t = typeSchema.parse(res.body);
    expect(t).toMatchObject({ name: "Power tool", icon: "drill", parentId: null, groupIds: [], isGroup: false, builtinKey: null, rowVersion: 1, fields: [] });
    const all = await types(as.viewer);
    expect(all.map((x) => x.id)).toContain(t.id);
    expect(all.some((x) => x.builtinKey === "thing")).toBe(true);
  });

  test("fields come from the type, its parents and its groups, with source {typeId, via}; an own key wins", async ({ as, type, types }) => {
    const tool = await type({ name: "Tool" });
    const drill = await type({ name: "Drill", parentId: tool.id });
    const insured = await type({ name: "Insured", isGroup: true });
    const cordless = await type({ name: "Cordless drill", parentId: drill.id, groupIds: [insured.id] });
    const add = (id: string, body: object) => as.admin.post(`/api/v1/types/${id}/fields`, body);
    expect((await add(tool.id, { key: "serial_no", label: "Serial", kind: "text" })).status).toBe(201);
    expect((await add(drill.id, { key: "voltage", label: "Voltage", kind: "number", unit: "V", sort: 2 })).status).toBe(201);
    expect((await add(insured.id, { key: "policy", label: "Policy", kind: "text" })).status).toBe(201);
    const own = await add(cordless.id, { key: "serial_no", label: "Own serial", kind: "text", sort: -1 });
    expect(own.status).toBe(201);
    expect(typeFieldSchema.parse(own.body).source).toEqual({ typeId: cordless.id, via: "own" });
    const seen = (await types()).find((t) => t.id === cordless.id)!;
    expect(seen.fields.map((f) => [f.key, f.label, f.source])).toEqual([
      ["serial_no", "Own serial", { typeId: cordless.id, via: "own" }],
      ["policy", "Policy", { typeId: insured.id, via: "group" }],
      ["voltage", "Voltage", { typeId: drill.id, via: "inherited" }],
    ]);
  });

  test("parent and group rules: a cycle is 400, a non-group in groupIds is 400, an unknown id is 404 type", async ({ as, type }) => {
    const a = await type({ name: "A" });
    const b = await type({ name: "B", parentId: a.id });
    const cycle = await as.owner.patch(`/api/v1/types/${a.id}`, { rowVersion: 1, parentId: b.id });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error.message).toMatch(/inherit from itself/);
    expect((await as.owner.patch(`/api/v1/types/${a.id}`, { rowVersion: 1, parentId: a.id })).status).toBe(400);
    expect((await as.owner.patch(`/api/v1/types/${a.id}`, { rowVersion: 1, groupIds: [b.id] })).status).toBe(400);
    const unknown = await as.owner.patch(`/api/v1/types/${a.id}`, { rowVersion: 1, parentId: uuidv7() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/type/);
    const group = await type({ name: "G", isGroup: true });
    expect((await as.owner.patch(`/api/v1/types/${b.id}`, { rowVersion: 1, parentId: group.id })).status).toBe(400);
  });

  test("rename, archive and un-archive with rowVersion; a stale one is version_conflict; a built-in keeps its name", async ({ loc, as, type, types }) => {
    const t = await type({ name: "Lamp" });
    const renamed = await as.admin.patch(`/api/v1/types/${t.id}`, { rowVersion: 1, name: "Light", archived: true });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Light", rowVersion: 2 });
    expect(renamed.body.archivedAt).toEqual(expect.any(String));
    const stale = await as.admin.patch(`/api/v1/types/${t.id}`, { rowVersion: 1, icon: "lamp" });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "version_conflict", details: { rowVersion: 2 } });
    expect((await types()).find((x) => x.id === t.id)?.archivedAt).toEqual(expect.any(String));
    // An archived type takes no new thing.
    const thing = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Desk lamp", typeId: t.id });
    expect(thing.status).toBe(400);
    expect((await as.admin.patch(`/api/v1/types/${t.id}`, { rowVersion: 2, archived: false })).body.archivedAt).toBeNull();

    const builtin = (await types()).find((x) => x.builtinKey === "thing")!;
    const rename = await as.owner.patch(`/api/v1/types/${builtin.id}`, { rowVersion: builtin.rowVersion, name: "Stuff" });
    expect(rename.status).toBe(400);
    expect(rename.body.error.message).toMatch(/built-in/);
    const field = await as.owner.post(`/api/v1/types/${builtin.id}/fields`, { key: "notes_extra", label: "More notes", kind: "text" });
    expect(field.status, JSON.stringify(field.body)).toBe(201);
  });

  test("limits: name 1-80, icon 1-40, groupIds at most 20 (at the bound and one past it)", async ({ loc, as, type, types }) => {
    const before = (await types()).length;
    const post = (body: object) => as.owner.post(`/api/v1/locations/${loc}/types`, body);
    for (const bad of [{ name: "" }, { name: "   " }, { name: "x".repeat(81) }, { name: "Ok", icon: "" }, { name: "Ok", icon: "i".repeat(41) }]) {
      const res = await post(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(code(res.body)).toBe("validation_failed");
    }
    expect((await types()).length).toBe(before);
    await type({ name: "n".repeat(80), icon: "i".repeat(40) });
    const groups = [];
    for (let i = 0; i < 21; i++) groups.push((await type({ name: `Group ${i}`, isGroup: true })).id);
    expect((await post({ name: "Twenty", groupIds: groups.slice(0, 20) })).status).toBe(201);
    const past = await post({ name: "Twenty-one", groupIds: groups });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toMatch(/groupIds/);
  });
});

describe("type fields", () => {
  test("body rules: key pattern and 40 characters, label 1-80, unit 1-12, options at most 100 (bound passes, one past is 400)", async ({ as, type, types }) => {
    const t = await type({ name: "Limits" });
    const add = (body: object) => as.admin.post(`/api/v1/types/${t.id}/fields`, body);
    const ok = [
      { key: "k".repeat(40), label: "L".repeat(80), kind: "text" },
      { key: "weight", label: "Weight", kind: "number", unit: "u".repeat(12) },
      { key: "colour_pick", label: "Colour", kind: "select", options: Array.from({ length: 100 }, (_, i) => `o${i}`) },
      { key: "a1_b2", label: "L", kind: "money", unit: "/month" },
    ];
    for (const body of ok) expect((await add(body)).status, JSON.stringify(body).slice(0, 80)).toBe(201);
    const bad = [
      { key: "k".repeat(41), label: "L", kind: "text" },
      { key: "Serial", label: "L", kind: "text" },
      { key: "1abc", label: "L", kind: "text" },
      { key: "a-b", label: "L", kind: "text" },
      { key: "x1", label: "", kind: "text" },
      { key: "x2", label: "L".repeat(81), kind: "text" },
      { key: "x3", label: "L", kind: "number", unit: "u".repeat(13) },
      { key: "x4", label: "L", kind: "number", unit: "" },
      { key: "x5", label: "L", kind: "select", options: Array.from({ length: 101 }, (_, i) => `o${i}`) },
      { key: "x6", label: "L", kind: "colour" },
      // options only for select kinds (and needed there); a unit only on numbers and money
      { key: "x7", label: "L", kind: "select" },
      { key: "x8", label: "L", kind: "select", options: [] },
      { key: "x9", label: "L", kind: "text", options: ["a"] },
      { key: "x10", label: "L", kind: "boolean", unit: "kg" },
      { key: "x11", label: "L", kind: "select", options: ["a", "a"] },
      { key: "x12", label: "L", kind: "multi_select", options: ["a"], repeatable: true },
    ];
    for (const body of bad) {
      const res = await add(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(code(res.body)).toBe("validation_failed");
    }
    const fields = (await types()).find((x) => x.id === t.id)!.fields;
    expect(fields.map((f) => f.key).sort()).toEqual(["a1_b2", "colour_pick", "k".repeat(40), "weight"].sort());
  });

  test("a key is unique per type: 409 conflict naming it; another type may use it", async ({ as, type }) => {
    const a = await type({ name: "Bike" });
    const b = await type({ name: "Scooter" });
    expect((await as.admin.post(`/api/v1/types/${a.id}/fields`, { key: "frame", label: "Frame", kind: "text" })).status).toBe(201);
    const again = await as.admin.post(`/api/v1/types/${a.id}/fields`, { key: "frame", label: "Frame 2", kind: "number" });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: "conflict", details: { key: "frame" } });
    expect(again.body.error.message).toMatch(/"frame"/);
    expect((await as.admin.post(`/api/v1/types/${b.id}/fields`, { key: "frame", label: "Frame", kind: "text" })).status).toBe(201);
  });

  test("PATCH changes label, unit, options, required and sort; rowVersion optional, a stale one 409; shape rules hold", async ({ as, type }) => {
    const t = await type({ name: "Camera" });
    const f = typeFieldSchema.parse(
      (await as.admin.post(`/api/v1/types/${t.id}/fields`, { key: "mount", label: "Mount", kind: "select", options: ["EF"] })).body,
    );
    const res = await as.admin.patch(`/api/v1/type-fields/${f.id}`, { label: "Lens mount", options: ["EF", "RF"], required: true, sort: 5 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(typeFieldSchema.parse(res.body)).toMatchObject({ label: "Lens mount", options: ["EF", "RF"], required: true, sort: 5, rowVersion: 2 });
    expect((await as.admin.patch(`/api/v1/type-fields/${f.id}`, { rowVersion: 1, label: "Old" })).status).toBe(409);
    expect((await as.admin.patch(`/api/v1/type-fields/${f.id}`, { options: null })).status).toBe(400);
    expect((await as.admin.patch(`/api/v1/type-fields/${f.id}`, { unit: "mm" })).status).toBe(400);
    expect((await as.admin.patch(`/api/v1/type-fields/${f.id}`, { sort: 1_000_001 })).status).toBe(400);
    expect((await as.admin.patch(`/api/v1/type-fields/${f.id}`, {})).status).toBe(400);
    expect((await as.admin.patch(`/api/v1/type-fields/${f.id}`, { rowVersion: 2, sort: 1_000_000 })).status).toBe(200);
  });

  test("DELETE archives a field: archivedAt set, values on things kept, no new value accepted", async ({ loc, as, type, types }) => {
    const t = await type({ name: "Drone" });
    const f = typeFieldSchema.parse((await as.admin.post(`/api/v1/types/${t.id}/fields`, { key: "rotor", label: "Rotors", kind: "number" })).body);
    const thing = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Quad", typeId: t.id, fields: { rotor: 4 } });
    expect(thing.status, JSON.stringify(thing.body)).toBe(201);
    const del = await as.admin.delete(`/api/v1/type-fields/${f.id}`, {});
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body.archivedAt).toEqual(expect.any(String));
    expect((await types()).find((x) => x.id === t.id)!.fields[0]).toMatchObject({ key: "rotor", archivedAt: expect.any(String) });
    expect((await as.member.get(`/api/v1/things/${thing.body.id}`)).body.fields).toEqual({ rotor: 4 });
    const again = await as.member.post(`/api/v1/locations/${loc}/things`, { name: "Hexa", typeId: t.id, fields: { rotor: 6 } });
    expect(again.status).toBe(400);
    // Archiving again changes nothing; a stale rowVersion is a conflict.
    expect((await as.admin.delete(`/api/v1/type-fields/${f.id}`, { rowVersion: 2 })).body.rowVersion).toBe(2);
    expect((await as.admin.delete(`/api/v1/type-fields/${f.id}`, { rowVersion: 1 })).status).toBe(409);
  });

  test("a secret field needs the owner: an admin is refused 403, the owner makes it", async ({ as, type }) => {
    const t = await type({ name: "Router" });
    const body = { key: "wifi_password", label: "Wi-Fi password", kind: "text", secret: true };
    const admin = await as.admin.post(`/api/v1/types/${t.id}/fields`, body);
    expect(admin.status).toBe(403);
    expect(code(admin.body)).toBe("forbidden");
    const owner = await as.owner.post(`/api/v1/types/${t.id}/fields`, body);
    expect(owner.status, JSON.stringify(owner.body)).toBe(201);
    expect(owner.body.secret).toBe(true);
  });
});

describe("place kinds, brands and tags", () => {
  test("place kinds with fields (source is the kind); brands and tags: create and list; limits", async ({ loc, as }) => {
    const kind = await as.admin.post(`/api/v1/locations/${loc}/place-kinds`, { name: "Garage", icon: "garage" });
    expect(kind.status, JSON.stringify(kind.body)).toBe(201);
    const k = placeKindSchema.parse(kind.body);
    const f = await as.admin.post(`/api/v1/place-kinds/${k.id}/fields`, { key: "door_code", label: "Door code", kind: "text" });
    expect(f.status).toBe(201);
    expect(f.body.source).toEqual({ typeId: k.id, via: "own" });
    expect((await as.admin.post(`/api/v1/place-kinds/${k.id}/fields`, { key: "door_code", label: "Again", kind: "text" })).status).toBe(409);
    const kinds = (await as.viewer.get(`/api/v1/locations/${loc}/place-kinds`)).body.items;
    expect(kinds.find((x: { id: string }) => x.id === k.id).fields.map((x: { key: string }) => x.key)).toEqual(["door_code"]);

    const brand = await as.admin.post(`/api/v1/locations/${loc}/brands`, { name: "b".repeat(80) });
    expect(brand.status).toBe(201);
    expect(brandSchema.parse(brand.body).name).toBe("b".repeat(80));
    expect((await as.admin.post(`/api/v1/locations/${loc}/brands`, { name: "b".repeat(81) })).status).toBe(400);
    const tag = await as.admin.post(`/api/v1/locations/${loc}/tags`, { name: "Fragile", colour: "red" });
    expect(tag.status).toBe(201);
    expect(tagSchema.parse(tag.body)).toMatchObject({ name: "Fragile", colour: "red" });
    expect((await as.admin.post(`/api/v1/locations/${loc}/tags`, { name: "" })).status).toBe(400);
    expect((await as.admin.post(`/api/v1/locations/${loc}/tags`, { name: "Bad", colour: "#fff" })).status).toBe(400);
    expect((await as.member.get(`/api/v1/locations/${loc}/brands`)).body.items.map((b: { id: string }) => b.id)).toContain(brand.body.id);
    expect((await as.viewer.get(`/api/v1/locations/${loc}/tags`)).body.items.map((b: { id: string }) => b.id)).toEqual([tag.body.id]);
    expect((await as.outsider.get(`/api/v1/locations/${loc}/tags`)).status).toBe(404);
  });

  test("viewers and members are refused every write (403); an outsider sees nothing (404)", async ({ loc, as, type }) => {
    const t = await type({ name: "Guarded" });
    const f = (await as.owner.post(`/api/v1/types/${t.id}/fields`, { key: "g", label: "G", kind: "text" })).body;
    const kind = (await as.owner.post(`/api/v1/locations/${loc}/place-kinds`, { name: "Vault" })).body;
    const writes = (c: Client) => [
      c.post(`/api/v1/locations/${loc}/types`, { name: "No" }),
      c.patch(`/api/v1/types/${t.id}`, { rowVersion: 1, name: "No" }),
      c.post(`/api/v1/types/${t.id}/fields`, { key: "no", label: "No", kind: "text" }),
      c.patch(`/api/v1/type-fields/${f.id}`, { label: "No" }),
      c.delete(`/api/v1/type-fields/${f.id}`, {}),
      c.post(`/api/v1/locations/${loc}/place-kinds`, { name: "No" }),
      c.post(`/api/v1/place-kinds/${kind.id}/fields`, { key: "no", label: "No", kind: "text" }),
      c.post(`/api/v1/locations/${loc}/brands`, { name: "No" }),
      c.post(`/api/v1/locations/${loc}/tags`, { name: "No" }),
    ];
    for (const c of [as.viewer, as.member]) expect((await Promise.all(writes(c))).map((r) => r.status)).toEqual(Array(9).fill(403));
    expect((await Promise.all(writes(as.outsider))).map((r) => r.status)).toEqual(Array(9).fill(404));
    for (const path of ["types", "place-kinds", "brands", "tags"]) expect((await as.outsider.get(`/api/v1/locations/${loc}/${path}`)).status).toBe(404);
  });
});
