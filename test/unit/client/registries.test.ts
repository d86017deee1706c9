import { describe, expect, it } from "vitest";
import type { Op } from "../../../sync/ops.js";
import type { TypeFieldRow, TypeRow } from "../../../client/db/rows.js";
import { overlayRegistries } from "../../../client/sync/optimistic-registries.js";
import { shapesOf } from "../../../client/ops/index.js";
import { overlay } from "../../../client/sync/optimistic.js";
import type { RegistryOp } from "../../../client/sync/registry-ops.js";
import { effectiveFields } from "../../../client/ui/registries.js";
import { AT as at, thingRow } from "./rows.js";

const ACCOUNT = "0190a000-0000-7000-8000-00000000ac01";
const LOC = "0190a000-0000-7000-8000-000000000001";
const OTHER_LOC = "0190a000-0000-7000-8000-000000000009";
const accountOf = (id: string) => (id === LOC ? ACCOUNT : undefined);
let n = 0;
const uuid = () => `0190a000-0000-7000-8000-${String(++n).padStart(12, "0")}`;
const op = (o: Omit<RegistryOp, "id" | "at">): RegistryOp => ({ ...o, id: uuid(), at }) as RegistryOp;
const stamps = { rowVersion: 1, createdAt: at, updatedAt: at, deletedAt: null };

const type = (id: string, over: Partial<TypeRow> = {}): TypeRow => ({
  id,
  accountId: ACCOUNT,
  parentId: null,
  groupIds: [],
  isGroup: false,
  icon: "thing",
  name: id,
  builtinKey: null,
  containerByDefault: false,
  archivedAt: null,
  ...stamps,
  ...over,
});
const field = (typeId: string, key: string, over: Partial<TypeFieldRow> = {}): TypeFieldRow => ({
  id: `${typeId}-${key}`,
  accountId: ACCOUNT,
  typeId,
  placeKindId: null,
  key,
  label: key,
  labelKey: null,
  kind: "text",
  unit: null,
  options: null,
  repeatable: false,
  required: false,
  secret: false,
  sort: 0,
  archivedAt: null,
  ...stamps,
  ...over,
});

describe("effective fields of a type (spec source.via)", () => {
  const types = new Map(
    [type("tool", { parentId: "thing" }), type("thing"), type("drill", { parentId: "tool", groupIds: ["powered"] }), type("powered", { isGroup: true })].map(
      (t) => [t.id, t],
    ),
  );
  const fields = [
    field("thing", "notes", { sort: 5 }),
    field("tool", "serial", { sort: 1 }),
    field("drill", "serial", { sort: 2, label: "Drill serial" }),
    field("drill", "chuck", { sort: 3 }),
    field("powered", "voltage", { sort: 4 }),
    field("drill", "old", { archivedAt: at }),
  ];

  it("lists own, inherited and group fields, the closest definition of a key winning, by sort", () => {
    const eff = effectiveFields("drill", types, fields);
    expect(eff.map((e) => [e.field.key, e.via, e.sourceId])).toEqual([
      ["serial", "own", "drill"],
      ["chuck", "own", "drill"],
      ["voltage", "group", "powered"],
      ["notes", "inherited", "thing"],
    ]);
    expect(eff[0]!.field.label).toBe("Drill serial");
    expect(effectiveFields("drill", types, fields, true).map((e) => e.field.key)).toContain("old");
    expect(effectiveFields(null, types, fields)).toEqual([]);
  });

  it("stops on a parent loop", () => {
    const loop = new Map([type("a", { parentId: "b" }), type("b", { parentId: "a" })].map((t) => [t.id, t]));
    expect(effectiveFields("a", loop, [field("a", "x"), field("b", "y")]).map((e) => e.field.key)).toEqual(["x", "y"]);
  });
});

describe("optimistic apply of registry ops", () => {
  it("shows a new type and its fields at once, in the account of the location the op went through, pending", () => {
    const typeId = uuid();
    const fieldId = uuid();
    const state = overlayRegistries(
      {},
      [
        op({ name: "type.create", locationId: LOC, args: { id: typeId, name: "Bike" } }),
        op({ name: "type_field.create", locationId: LOC, args: { id: fieldId, typeId, key: "frame", label: "Frame", kind: "select", options: ["S", "M"] } }),
        op({ name: "type_field.update", locationId: LOC, args: { id: fieldId, patch: { required: true, label: "Frame size" } } }),
      ],
      accountOf,
    );
    expect(state.types.get(typeId)).toMatchObject({ name: "Bike", accountId: ACCOUNT, builtinKey: null, pending: true, rowVersion: 0 });
    expect(state.typeFields.get(fieldId)).toMatchObject({ key: "frame", label: "Frame size", required: true, options: ["S", "M"], typeId, pending: true });
  });

  it("renames and archives over the server's row, never editing it, and restores", () => {
    const server = type("t1", { name: "Old" });
    const archived = overlayRegistries(
      { types: [server] },
      [op({ name: "type.update", locationId: LOC, args: { id: "t1", patch: { name: "New", archived: true } } })],
      accountOf,
    );
    expect(archived.types.get("t1")).toMatchObject({ name: "New", archivedAt: at, pending: true });
    expect(server.name).toBe("Old");
    const restored = overlayRegistries(
      { types: [{ ...server, archivedAt: at }] },
      [op({ name: "type.update", locationId: LOC, args: { id: "t1", patch: { archived: false } } })],
      accountOf,
    );
    expect(restored.types.get("t1")!.archivedAt).toBeNull();
    const f = overlayRegistries({ typeFields: [field("t1", "x")] }, [op({ name: "type_field.archive", locationId: LOC, args: { id: "t1-x" } })], accountOf);
    expect(f.typeFields.get("t1-x")!.archivedAt).toBe(at);
  });

  it("makes a template from the thing it is saved from, and skips ops through a location it does not know", () => {
    const thing = thingRow({ id: uuid(), locationId: LOC, placeId: null }, { typeId: "t1", fields: { serial: "S1" } });
    const templateId = uuid();
    const state = overlayRegistries(
      {},
      [
        op({ name: "template.create", locationId: LOC, args: { id: templateId, thingId: thing.id, name: "Drill", locationIds: [LOC] } }),
        op({ name: "tag.create", locationId: OTHER_LOC, args: { id: uuid(), name: "nope" } }),
      ],
      accountOf,
      (id) => (id === thing.id ? thing : undefined),
    );
    expect(state.templates.get(templateId)).toMatchObject({ typeId: "t1", payload: { fields: { serial: "S1" } }, locationIds: [LOC], accountId: ACCOUNT });
    expect(state.tags.size).toBe(0);
  });

  it("names the shape where each registry op's txid arrives (sync/SPEC.md PU7), through shapesOf", () => {
    const shapes = (name: RegistryOp["name"]) => shapesOf({ name, id: "x", locationId: LOC, args: {}, at } as unknown as Op);
    expect(shapes("type.create")).toEqual(["types"]);
    expect(shapes("type_field.archive")).toEqual(["type_fields"]);
    expect(shapes("place_kind.update")).toEqual(["place_kinds"]);
    expect(shapes("tag.create")).toEqual(["tags"]);
    expect(shapes("template.create")).toEqual(["templates"]);
  });
});

describe("optimistic custom field values", () => {
  it("merges a thing.update's fields by key and clears a key set to null, as the server does", () => {
    const thing = thingRow({ id: uuid(), locationId: LOC, placeId: null }, { fields: { serial: "S1", colour: "red" } });
    const update = {
      id: uuid(),
      at,
      name: "thing.update",
      locationId: LOC,
      args: { id: thing.id, patch: { fields: { serial: "S2", colour: null, bought: "2026-11-24" } } },
    } as Op;
    expect(overlay({ things: [thing] }, [update]).things.get(thing.id)!.fields).toEqual({ serial: "S2", bought: "2026-11-24" });
    expect(thing.fields).toEqual({ serial: "S1", colour: "red" });
  });
});
