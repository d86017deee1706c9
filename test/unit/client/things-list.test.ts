import "fake-indexeddb/auto";
import fc from "fast-check";
import { Dexie } from "dexie";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Op } from "../../../sync/ops.js";
import { InventoryDb, type OutboxEntry } from "../../../client/db/database.js";
import { thingNameKey, type ThingRow } from "../../../client/db/rows.js";
import { overlay } from "../../../client/sync/optimistic.js";
import { foldForSearch } from "../../../client/ui/search/fold.js";
import { readThingsList, THINGS_LIST_LIMIT, type ThingsFilter } from "../../../client/ui/things-list.js";
import { AT as at, thingRow } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const OTHER = "0190a000-0000-7000-8000-000000000002";
const SHELF = "0190a000-0000-7000-8000-000000000003";
const thingId = (i: number) => `0190a000-0000-7000-8000-${String(1000 + i).padStart(12, "0")}`;
let opN = 0;
const opId = () => `0190a001-0000-7000-8000-${String(++opN).padStart(12, "0")}`;

const thing = (i: number, over: Partial<ThingRow> = {}): ThingRow =>
  thingRow({ id: thingId(i), locationId: LOC, placeId: SHELF }, { name: `Thing ${i}`, ...over });

/** As the things shape follower stores a row (client/sync/shapes.ts). */
const stored = (t: ThingRow): ThingRow => ({ ...t, nameKey: thingNameKey(t.name) });

const waiting = (ops: Op[]): OutboxEntry[] => ops.map((op) => ({ op, state: "pending", blobIds: [] }));

/** The list as it was before it read a page: every thing in memory, overlaid, filtered, sorted. */
function everything(rows: ThingRow[], ops: Op[], filter: ThingsFilter): string[] {
  // These things have no type, brand, tags or fields, and their place is not stored: only their own words count.
  const needle = foldForSearch(filter.q);
  const hay = (t: ThingRow) => foldForSearch([t.name, t.serial, t.model, t.shortCode].filter(Boolean).join(" "));
  const key = (t: ThingRow) => [thingNameKey(t.name), t.id] as const;
  return [...overlay({ things: rows.filter((r) => r.locationId === LOC) }, ops).things.values()]
    .filter((t) => (!filter.placeId || t.placeId === filter.placeId) && (!needle || hay(t).includes(needle)))
    .sort((a, b) => {
      const [ka, ia] = key(a);
      const [kb, ib] = key(b);
      return ka < kb ? -1 : ka > kb ? 1 : ia < ib ? -1 : ia > ib ? 1 : 0;
    })
    .slice(0, THINGS_LIST_LIMIT)
    .map((t) => t.id);
}

describe("things list", () => {
  let db: InventoryDb;
  beforeEach(() => {
    db = new InventoryDb(`test-${Math.random()}`);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it("reads the first things by name, case and accents folded, unnamed first, never more than the limit", async () => {
    const rows = Array.from({ length: THINGS_LIST_LIMIT + 30 }, (_, i) => thing(i, { name: `item ${String(i).padStart(4, "0")}` }));
    rows.push(
      thing(9001, { name: "Zebra" }),
      thing(9002, { name: "apple" }),
      thing(9003, { name: "Éclair" }),
      thing(9004, { name: null }),
      thing(9005, { name: "eclair" }),
    );
    rows.push(thing(9006, { name: "Aardvark", locationId: OTHER }));
    await db.things.bulkPut(rows.map(stored));
    const list = await readThingsList(db, LOC, { q: "", placeId: "" });
    expect(list.things).toHaveLength(THINGS_LIST_LIMIT);
    expect(list.things.slice(0, 4).map((t) => t.name)).toEqual([null, "apple", "Éclair", "eclair"]);
    expect(list.things.map((t) => t.id)).toEqual(everything(rows, [], { q: "", placeId: "" }));
    expect(list.things.some((t) => t.name === "Zebra" || t.locationId === OTHER)).toBe(false);
    expect(list.more).toBe(true);
    // "Show more": the next page continues in the same order, and then nothing is left.
    const all = await readThingsList(db, LOC, { q: "", placeId: "", limit: 2 * THINGS_LIST_LIMIT });
    expect(all.things).toHaveLength(THINGS_LIST_LIMIT + 30 + 5);
    expect(all.things.slice(0, THINGS_LIST_LIMIT).map((t) => t.id)).toEqual(list.things.map((t) => t.id));
    expect(all.things.at(-1)!.name).toBe("Zebra");
    expect(all.more).toBe(false);
  });

  it("shows this device's waiting ops exactly as if every thing were read: renames into and out of the page, deletes, creates", async () => {
    const names = fc.string({ minLength: 0, maxLength: 4, unit: fc.constantFrom("a", "b", "B", "é", " ", "z") });
    const n = THINGS_LIST_LIMIT + 20;
    await fc.assert(
      fc.asyncProperty(
        fc.array(names, { minLength: n, maxLength: n }),
        fc.array(
          fc.oneof(
            fc.record({ kind: fc.constant("rename" as const), i: fc.nat(n - 1), name: names }),
            fc.record({ kind: fc.constant("delete" as const), i: fc.nat(n - 1) }),
            fc.record({ kind: fc.constant("move" as const), i: fc.nat(n - 1) }),
            fc.record({ kind: fc.constant("create" as const), i: fc.nat(99), name: names }),
          ),
          { maxLength: 12 },
        ),
        fc.record({ q: fc.constantFrom("", "b", "é"), placeId: fc.constantFrom("", SHELF) }),
        async (thingNames, actions, filter) => {
          await db.things.clear();
          await db.outbox.clear();
          const rows = thingNames.map((name, i) => thing(i, { name }));
          await db.things.bulkPut(rows.map(stored));
          const ops: Op[] = actions.map((a) => {
            const base = { id: opId(), at, locationId: LOC };
            switch (a.kind) {
              case "rename":
                return { ...base, name: "thing.update", args: { id: thingId(a.i), patch: { name: a.name } } };
              case "delete":
                return { ...base, name: "thing.delete", args: { id: thingId(a.i) } };
              case "move":
                return { ...base, name: "thing.move", args: { id: thingId(a.i), placeId: OTHER } };
              case "create":
                return { ...base, name: "thing.create", args: { id: thingId(5000 + a.i), name: a.name, placeId: SHELF } };
            }
          });
          await db.outbox.bulkAdd(waiting(ops));
          const list = await readThingsList(db, LOC, filter);
          expect(list.things.map((t) => t.id)).toEqual(everything(rows, ops, filter));
        },
      ),
      { numRuns: 40 },
    );
  }, 60_000);

  it("knows the containers a listed thing sits in, however deep and wherever they sort", async () => {
    const box = thing(1, { name: "zz box", placeId: SHELF, isContainer: true });
    const crate = thing(2, { name: "zz crate", placeId: null, containerId: box.id, isContainer: true });
    const drill = thing(3, { name: "Drill", placeId: null, containerId: crate.id });
    const filler = Array.from({ length: THINGS_LIST_LIMIT }, (_, i) => thing(100 + i, { name: `m ${i}` }));
    await db.things.bulkPut([box, crate, drill, ...filler].map(stored));
    const list = await readThingsList(db, LOC, { q: "drill", placeId: "" });
    expect(list.things.map((t) => t.name)).toEqual(["Drill"]);
    expect(list.known.get(crate.id)?.name).toBe("zz crate");
    expect(list.known.get(box.id)?.name).toBe("zz box");
  });

  it("a database of version 1 is upgraded: every stored thing gets its name key and is found by location", async () => {
    const name = `v1-${Math.random()}`;
    const v1 = new Dexie(name);
    v1.version(1).stores({
      locations: "id",
      memberships: "id",
      places: "id, locationId",
      types: "id",
      things: "id, locationId",
      inbox: "id, locationId",
      outbox: "++seq",
      blobs: "id",
      meta: "key",
    });
    await v1.table("things").bulkPut([thing(1, { name: " Éclair " }), thing(2, { name: null }), thing(3, { name: "apple", locationId: OTHER })]);
    v1.close();
    const upgraded = new InventoryDb(name);
    try {
      const all = await upgraded.things.toArray();
      expect(Object.fromEntries(all.map((t) => [t.id, t.nameKey]))).toEqual({ [thingId(1)]: "eclair", [thingId(2)]: "", [thingId(3)]: "apple" });
      expect((await upgraded.things.where("locationId").equals(LOC).toArray()).map((t) => t.id).sort()).toEqual([thingId(1), thingId(2)]);
      expect((await readThingsList(upgraded, LOC, { q: "", placeId: "" })).things.map((t) => t.id)).toEqual([thingId(2), thingId(1)]);
    } finally {
      upgraded.close();
      await upgraded.delete();
    }
  });
});
