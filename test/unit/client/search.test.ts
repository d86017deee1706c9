/** Finding things on the device: folding text (English and Arabic), what a thing is found by, and place filters. */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InventoryDb } from "../../../client/db/database.js";
import { thingNameKey, type BrandRow, type PlaceRow, type TagRow, type ThingRow, type TypeFieldRow, type TypeRow } from "../../../client/db/rows.js";
import { foldForSearch, searchTerms } from "../../../client/ui/search/fold.js";
import { placeFilter, ThingSearch, type SearchRows } from "../../../client/ui/search/thing-search.js";
import { PLAIN_LABELS, readThingsList } from "../../../client/ui/things-list.js";
import { AT, thingRow } from "./rows.js";

const LOC = "0190b000-0000-7000-8000-000000000001";
const ACCOUNT = "0190b000-0000-7000-8000-000000000002";
const id = (n: number) => `0190b000-0000-7000-8000-${String(1000 + n).padStart(12, "0")}`;
const synced = { rowVersion: 1, createdAt: AT, updatedAt: AT, deletedAt: null };

const place = (n: number, name: string, parent: number | null = null): PlaceRow => ({
  id: id(n),
  locationId: LOC,
  parentId: parent === null ? null : id(parent),
  kindId: null,
  name,
  isUnplaced: false,
  shortCode: null,
  fields: {},
  ...synced,
});
const type = (n: number, name: string | null, builtinKey: string | null = null): TypeRow => ({
  id: id(n),
  accountId: ACCOUNT,
  parentId: null,
  groupIds: [],
  isGroup: false,
  icon: "box",
  name,
  builtinKey,
  containerByDefault: false,
  archivedAt: null,
  ...synced,
});
const brand = (n: number, name: string): BrandRow => ({ id: id(n), accountId: ACCOUNT, name, ...synced });
const tag = (n: number, name: string): TagRow => ({ id: id(n), accountId: ACCOUNT, name, colour: null, ...synced });
const field = (key: string, secret: boolean): TypeFieldRow => ({
  id: id(900 + key.length),
  accountId: ACCOUNT,
  typeId: id(40),
  placeKindId: null,
  key,
  label: key,
  labelKey: null,
  kind: "text",
  unit: null,
  options: null,
  repeatable: false,
  required: false,
  secret,
  sort: 0,
  archivedAt: null,
  ...synced,
});
const thing = (n: number, name: string | null, over: Partial<ThingRow> = {}): ThingRow =>
  thingRow({ id: id(n), locationId: LOC, placeId: id(2) }, { name, ...over });

// Garage > Shelf 2 > Top; Attic; المرآب (the garage, in Arabic) > رف
const places = [place(1, "Garage"), place(2, "Shelf 2", 1), place(3, "Top", 2), place(4, "Attic"), place(5, "المرآب"), place(6, "رفّ", 5)];
const types = [type(40, "Power tool"), type(41, null, "tool"), type(42, "أداة كهربائية")];

describe("folding search text", () => {
  it("ignores case, accents and spacing", () => {
    expect(foldForSearch("  Éclair\tDRILL  ")).toBe("eclair drill");
    expect(foldForSearch("ＤＲＩＬＬ")).toBe("drill");
  });

  it("ignores Arabic short vowels, tatweel and the forms of alef, yeh, waw and ta marbuta", () => {
    expect(foldForSearch("مِثْقَب")).toBe(foldForSearch("مثقب"));
    expect(foldForSearch("مـــثقب")).toBe(foldForSearch("مثقب"));
    for (const alef of ["أداة", "إداة", "آداة", "ٱداة"]) expect(foldForSearch(alef)).toBe(foldForSearch("اداة"));
    expect(foldForSearch("مكتبة")).toBe(foldForSearch("مكتبه"));
    expect(foldForSearch("مستشفى")).toBe(foldForSearch("مستشفي"));
    expect(foldForSearch("مسؤول")).toBe(foldForSearch("مسوول"));
    expect(foldForSearch("ﻻ")).toBe("لا");
    // Bidi marks and the Persian letters people type on some keyboards.
    expect(foldForSearch("\u200Fکتاب ی")).toBe(foldForSearch("كتاب ي"));
  });

  it("reads Arabic-Indic and Persian digits as Western ones", () => {
    expect(foldForSearch("رف ٢٣")).toBe(foldForSearch("رف 23"));
    expect(foldForSearch("۴۵")).toBe("45");
  });

  it("splits a search into distinct words; blank is no words", () => {
    expect(searchTerms("  Red   BOX red ")).toEqual(["red", "box"]);
    expect(searchTerms(" \u200F ")).toEqual([]);
  });
});

describe("what a thing is found by", () => {
  const box = thing(20, "Red box", { isContainer: true, placeId: id(3), shortCode: "K7M4QX" });
  const crate = thing(21, "صندوق", { isContainer: true, placeId: null, containerId: box.id });
  const drill = thing(22, "Cordless drill", {
    placeId: null,
    containerId: crate.id,
    typeId: id(40),
    brandId: id(50),
    tagIds: [id(60)],
    model: "DCD777",
    serial: "SN-0042",
    fields: { voltage: 18, notes: "needs a new chuck", pin: "7391", photos: [id(99)], price: { amount: "129.00", currency: "EUR" } },
  });
  const saw = thing(23, "منشار", { placeId: id(6), typeId: id(42), description: "للخشب" });
  const hammer = thing(24, "Hammer", { placeId: id(4), typeId: id(41) });
  const things = new Map([box, crate, drill, saw, hammer].map((t) => [t.id, t]));
  const rows: SearchRows = {
    things,
    places: new Map(places.map((p) => [p.id, p])),
    types,
    brands: [brand(50, "DeWalt")],
    tags: [tag(60, "Borrowed")],
    fields: [field("pin", true), field("notes", false)],
  };
  const search = new ThingSearch(rows, PLAIN_LABELS);
  const found = (q: string) => [...things.values()].filter(search.matcher(q)!).map((t) => t.name);

  it("finds by name, type, brand, tag, model, serial, description and plain field values", () => {
    expect(found("drill")).toEqual(["Cordless drill"]);
    expect(found("power TOOL")).toEqual(["Cordless drill"]);
    expect(found("dewalt")).toEqual(["Cordless drill"]);
    expect(found("borrowed")).toEqual(["Cordless drill"]);
    expect(found("dcd777")).toEqual(["Cordless drill"]);
    expect(found("sn-0042")).toEqual(["Cordless drill"]);
    expect(found("chuck")).toEqual(["Cordless drill"]);
    expect(found("18")).toEqual(["Cordless drill"]);
    expect(found("129")).toEqual(["Cordless drill"]);
    expect(found("خشب")).toEqual(["منشار"]);
    // A built-in type by the label given (here its key; the app passes the person's language).
    expect(found("tool")).toEqual(["Cordless drill", "Hammer"]);
  });

  it("finds by every place and container above a thing, with their codes", () => {
    expect(found("garage")).toEqual(["Red box", "صندوق", "Cordless drill"]);
    expect(found("shelf 2 drill")).toEqual(["Cordless drill"]);
    expect(found("red box")).toEqual(["Red box", "صندوق", "Cordless drill"]);
    expect(found("K7M-4QX")).toEqual(["Red box", "صندوق", "Cordless drill"]);
    expect(found("صندوق")).toEqual(["صندوق", "Cordless drill"]);
    expect(found("attic")).toEqual(["Hammer"]);
  });

  it("matches Arabic as people type it: without harakat or shadda, any alef, Arabic digits", () => {
    expect(found("المراب")).toEqual(["منشار"]);
    expect(found("رف")).toEqual(["منشار"]);
    expect(found("اداه كهربائيه")).toEqual(["منشار"]);
    expect(found("مِنْشَار")).toEqual(["منشار"]);
    expect(found("١٨")).toEqual(["Cordless drill"]);
  });

  it("never searches a secret field's value, nor ids", () => {
    expect(found("7391")).toEqual([]);
    expect(found(id(99).slice(-6))).toEqual([]);
  });

  it("an empty search is no test at all", () => {
    expect(search.matcher("   ")).toBeUndefined();
  });
});

describe("the place filter", () => {
  const placeMap = new Map(places.map((p) => [p.id, p]));
  const box = thing(30, "Box", { placeId: id(3), isContainer: true });
  const inner = thing(31, "Inner", { placeId: null, containerId: box.id, isContainer: true });
  const deep = thing(32, "Deep", { placeId: null, containerId: inner.id });
  const onShelf = thing(33, "On shelf", { placeId: id(2) });
  const inAttic = thing(34, "In attic", { placeId: id(4) });
  const orphan = thing(35, "Orphan", { placeId: null, containerId: id(777) });
  const things = new Map([box, inner, deep, onShelf, inAttic, orphan].map((t) => [t.id, t]));
  const inPlace = (n: number) => [...things.values()].filter(placeFilter(id(n), placeMap, things)!).map((t) => t.name);

  it("keeps what is in the place, in the places inside it, and in containers there however deep", () => {
    expect(inPlace(1)).toEqual(["Box", "Inner", "Deep", "On shelf"]);
    expect(inPlace(2)).toEqual(["Box", "Inner", "Deep", "On shelf"]);
    expect(inPlace(3)).toEqual(["Box", "Inner", "Deep"]);
    expect(inPlace(4)).toEqual(["In attic"]);
    expect(inPlace(5)).toEqual([]);
    expect(placeFilter("", placeMap, things)).toBeUndefined();
  });
});

describe("the things list searched and filtered from Dexie", () => {
  let db: InventoryDb;
  beforeEach(() => {
    db = new InventoryDb(`search-${Math.random()}`);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it("finds a thing by its place's name and its container's contents by the place, including one waiting to sync", async () => {
    await db.locations.put({
      id: LOC,
      accountId: ACCOUNT,
      name: "Home",
      isPersonal: true,
      requiresTwoFactor: false,
      viewersSeeMoney: true,
      secretRevealRoles: ["owner"],
      scopeVersion: 1,
      ...synced,
    });
    await db.places.bulkPut(places);
    await db.types.bulkPut(types);
    const box = thing(40, "Blue crate", { placeId: id(3), isContainer: true });
    const rows = [box, thing(41, "Level", { placeId: null, containerId: box.id }), thing(42, "Ladder", { placeId: id(4) })];
    // Filler that sorts first, so the list's first page alone would not hold the matches.
    for (let i = 0; i < 600; i++) rows.push(thing(100 + i, `a filler ${i}`, { placeId: id(4) }));
    await db.things.bulkPut(rows.map((t) => ({ ...t, nameKey: thingNameKey(t.name) })));
    await db.outbox.add({
      op: { id: id(800), name: "thing.create", locationId: LOC, at: AT, args: { id: id(43), name: "Laser", containerId: box.id } },
      state: "pending",
      blobIds: [],
    });
    const names = async (q: string, placeId = "") => (await readThingsList(db, LOC, { q, placeId })).things.map((t) => t.name);
    expect(await names("garage")).toEqual(["Blue crate", "Laser", "Level"]);
    expect(await names("", id(1))).toEqual(["Blue crate", "Laser", "Level"]);
    expect(await names("laser", id(1))).toEqual(["Laser"]);
    expect(await names("ladder attic")).toEqual(["Ladder"]);
    expect((await readThingsList(db, LOC, { q: "", placeId: id(4) })).things).toHaveLength(500);
  });

  it("a tag made offline and a thing captured with it: found by the tag's name before either is synced", async () => {
    await db.locations.put({
      id: LOC,
      accountId: ACCOUNT,
      name: "Home",
      isPersonal: true,
      requiresTwoFactor: false,
      viewersSeeMoney: true,
      secretRevealRoles: ["owner"],
      scopeVersion: 1,
      ...synced,
    });
    await db.places.bulkPut(places);
    await db.outbox.bulkAdd([
      { op: { id: id(810), name: "tag.create", locationId: LOC, at: AT, args: { id: id(61), name: "Winter gear" } }, state: "pending", blobIds: [] },
      {
        op: { id: id(811), name: "thing.capture", locationId: LOC, at: AT, args: { id: id(44), name: "Sledge", placeId: id(4), tagIds: [id(61)] } },
        state: "pending",
        blobIds: [],
      },
    ]);
    expect((await readThingsList(db, LOC, { q: "winter", placeId: "" })).things.map((t) => t.name)).toEqual(["Sledge"]);
    expect((await readThingsList(db, LOC, { q: "winter attic", placeId: "" })).things.map((t) => t.name)).toEqual(["Sledge"]);
  });
});
