/**
 * Field values by kind: on places (against the place kind's fields, REST and push), on things (the
 * kinds' rules), and who reads registries with a personal token.
 */
import { describe, expect } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { tokenCreatedSchema } from "../../../shared/tokens.js";
import { PNG } from "../../support/hostile.js";
import { apiTest } from "../../support/fixtures.js";
import { op, push } from "../../support/push.js";

const test = apiTest
  /** A place kind with one field of each kind a place test needs; answers its id. */
  .extend("kind", { scope: "file" }, async ({ loc, as }) => {
    const kind = await as.admin.post(`/api/v1/locations/${loc}/place-kinds`, { name: "Storage unit" });
    const fields = [
      { key: "unit_no", label: "Unit", kind: "text", required: true },
      { key: "rent", label: "Rent", kind: "money", unit: "/month" },
      { key: "plan", label: "Plan", kind: "file" },
      { key: "opens", label: "Opens", kind: "select", options: ["day", "night"] },
    ];
    for (const f of fields) expect((await as.admin.post(`/api/v1/place-kinds/${kind.body.id}/fields`, f)).status).toBe(201);
    return kind.body.id as string;
  })
  /** A type with fields of the kinds whose value rules the tests probe; answers its id. */
  .extend("gadget", { scope: "file" }, async ({ loc, as }) => {
    const type = await as.admin.post(`/api/v1/locations/${loc}/types`, { name: "Gadget" });
    const fields = [
      { key: "price", label: "Price", kind: "money" },
      { key: "owner_name", label: "Owner", kind: "person" },
      { key: "shop", label: "Shop", kind: "vendor" },
      { key: "serials", label: "Serials", kind: "text", repeatable: true },
      { key: "tags_ms", label: "Tags", kind: "multi_select", options: ["a", "b"] },
    ];
    for (const f of fields) expect((await as.admin.post(`/api/v1/types/${type.body.id}/fields`, f)).status).toBe(201);
    return type.body.id as string;
  });

describe("field values on places", () => {
  test("a place of a kind takes its fields' values; each kind checked; a required field is needed at create", async ({ loc, as, kind }) => {
    const post = (body: object) => as.member.post(`/api/v1/locations/${loc}/places`, { name: "Unit 12", kindId: kind, ...body });
    const ok = await post({ fields: { unit_no: "12", rent: { amount: "120.00", currency: "EUR" }, opens: "day" } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.fields).toEqual({ unit_no: "12", rent: { amount: "120.00", currency: "EUR" }, opens: "day" });
    const bad = [
      { fields: { rent: { amount: "1" }, unit_no: "1" } },
      { fields: { unit_no: "1", rent: { amount: "1.00", currency: "XYZ" } } },
      { fields: { unit_no: "1", opens: "noon" } },
      { fields: { unit_no: "1", colour: "red" } },
      { fields: { rent: { amount: "1.00", currency: "EUR" } } },
      { fields: { unit_no: null } },
    ];
    for (const body of bad) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    // A place without a kind has no fields at all.
    const plain = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Corner", fields: { unit_no: "1" } });
    expect(plain.status).toBe(400);
    expect(plain.body.error.message).toMatch(/no kind/);
  });

  test("a file field takes the id of a file uploaded in the same location, not an unknown one", async ({ svc, loc, as, kind }) => {
    const res = await fetch(`${svc.url}/api/v1/files?locationId=${loc}`, {
      method: "POST",
      headers: { "content-type": "image/png", origin: svc.config.publicUrl.origin, cookie: [...as.member.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
      body: PNG,
    });
    expect(res.status).toBe(201);
    const file = (await res.json()) as { id: string };
    const post = (plan: string) => as.member.post(`/api/v1/locations/${loc}/places`, { name: "Unit 7", kindId: kind, fields: { unit_no: "7", plan } });
    expect((await post(file.id)).status).toBe(201);
    const unknown = await post(uuidv7());
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toMatch(/file/);
  });

  test("place.update merges values by key and null clears one; pushed ops are checked the same way", async ({ loc, as, kind }) => {
    const id = uuidv7();
    const created = await push(as.member, [
      op({ name: "place.create", locationId: loc, args: { id, name: "Unit 3", kindId: kind, fields: { unit_no: "3" } } }),
    ]);
    expect(created.body.results[0].status).toBe("applied");
    const patched = await as.member.patch(`/api/v1/places/${id}`, { rowVersion: 1, fields: { opens: "night" } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.fields).toEqual({ unit_no: "3", opens: "night" });
    const cleared = await as.member.patch(`/api/v1/places/${id}`, { rowVersion: 2, fields: { opens: null } });
    expect(cleared.body.fields).toEqual({ unit_no: "3" });
    const bad = await push(as.member, [op({ name: "place.update", locationId: loc, baseVersion: 3, args: { id, patch: { fields: { opens: "noon" } } } })]);
    expect(bad.body.results[0]).toMatchObject({ status: "dropped", reason: "invalid" });
    expect((await as.member.patch(`/api/v1/places/${id}`, { rowVersion: 3, kindId: null, fields: { unit_no: "4" } })).status).toBe(400);
  });

  test("a viewer of a location that hides money does not get money values of places", async ({ loc, as, kind }) => {
    await as.member.post(`/api/v1/locations/${loc}/places`, {
      name: "Unit 99",
      kindId: kind,
      fields: { unit_no: "99", rent: { amount: "5.00", currency: "USD" } },
    });
    const byViewer = (await as.viewer.get(`/api/v1/locations/${loc}/places`)).body.items.find((p: { name: string }) => p.name === "Unit 99");
    expect(byViewer.fields).toEqual({ unit_no: "99" });
    const byMember = (await as.member.get(`/api/v1/locations/${loc}/places`)).body.items.find((p: { name: string }) => p.name === "Unit 99");
    expect(byMember.fields.rent).toEqual({ amount: "5.00", currency: "USD" });
  });
});

test("an archived place kind is offered for no new place; un-archived it is again", async ({ loc, as }) => {
  const id = uuidv7();
  expect((await push(as.admin, [op({ name: "place_kind.create", locationId: loc, args: { id, name: "Old barn" } })])).body.results[0].status).toBe("applied");
  const archive = await push(as.admin, [op({ name: "place_kind.update", locationId: loc, baseVersion: 1, args: { id, patch: { archived: true } } })]);
  expect(archive.body.results[0]).toMatchObject({ status: "applied", rowVersion: 2 });
  const kinds = (await as.viewer.get(`/api/v1/locations/${loc}/place-kinds`)).body.items;
  expect(kinds.find((k: { id: string }) => k.id === id).archivedAt).toEqual(expect.any(String));
  const refused = await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Barn", kindId: id });
  expect(refused.status).toBe(400);
  expect(refused.body.error.message).toMatch(/archived/);
  await push(as.admin, [op({ name: "place_kind.update", locationId: loc, baseVersion: 2, args: { id, patch: { archived: false } } })]);
  expect((await as.member.post(`/api/v1/locations/${loc}/places`, { name: "Barn", kindId: id })).status).toBe(201);
  const rename = await push(as.member, [op({ name: "place_kind.update", locationId: loc, args: { id, patch: { name: "New barn" } } })]);
  expect(rename.body.results[0]).toMatchObject({ status: "dropped", reason: "forbidden" });
});

describe("field values on things, by kind", () => {
  test("money is a decimal string and an ISO 4217 currency; person and vendor are names; repeatable at most 50 values", async ({ loc, as, gadget }) => {
    const post = (fields: object) => as.member.post(`/api/v1/locations/${loc}/things`, { name: "Phone", typeId: gadget, fields });
    const fine = [
      { price: { amount: "199.99", currency: "EUR" } },
      { owner_name: "Olive Owner", shop: "Corner shop" },
      { serials: Array.from({ length: 50 }, (_, i) => `S${i}`) },
      { tags_ms: ["a", "b"] },
    ];
    for (const f of fine) expect((await post(f)).status, JSON.stringify(f).slice(0, 80)).toBe(201);
    const bad = [
      { price: { amount: 199.99, currency: "EUR" } },
      { price: { amount: "199.99", currency: "eur" } },
      { price: { amount: "199.99", currency: "ABC" } },
      { price: { amount: "1", currency: "EUR", note: "x" } },
      { owner_name: "" },
      { owner_name: "x".repeat(201) },
      { shop: 12 },
      { serials: Array.from({ length: 51 }, (_, i) => `S${i}`) },
      { serials: "S1" },
      { tags_ms: ["a", "a"] },
    ];
    for (const f of bad) {
      const res = await post(f);
      expect(res.status, JSON.stringify(f).slice(0, 80)).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
  });
});

describe("personal tokens", () => {
  test("a token reads the registries; it never writes them", async ({ svc, loc, as }) => {
    const created = await as.owner.post("/api/v1/tokens", { name: "Script", scope: "write", locationIds: [loc] });
    const { secret } = tokenCreatedSchema.parse(created.body);
    const c = svc.client();
    const auth = { authorization: `Bearer ${secret}` };
    for (const path of ["types", "place-kinds", "brands", "tags"])
      expect((await c.request("GET", `/api/v1/locations/${loc}/${path}`, undefined, auth)).status).toBe(200);
    const types = (await c.request("GET", `/api/v1/locations/${loc}/types`, undefined, auth)).body.items;
    const writes = [
      c.request("POST", `/api/v1/locations/${loc}/types`, { name: "By token" }, auth),
      c.request("PATCH", `/api/v1/types/${types[0].id}`, { rowVersion: 1, icon: "x" }, auth),
      c.request("POST", `/api/v1/types/${types[0].id}/fields`, { key: "tok", label: "Tok", kind: "text" }, auth),
      c.request("POST", `/api/v1/locations/${loc}/tags`, { name: "By token" }, auth),
      c.request("POST", `/api/v1/locations/${loc}/brands`, { name: "By token" }, auth),
    ];
    expect((await Promise.all(writes)).map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
  });
});
