/**
 * A scan read on the device (client/sync/field-ops.ts): the same outcomes as POST /scan/resolve,
 * from the things, places, codes and locations the device holds, and its own unpushed claims.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InventoryDb } from "../../../client/db/database.js";
import type { CodeRow, LocationRow, PlaceRow } from "../../../client/db/rows.js";
import { claimCode, recordBoxCheck } from "../../../client/ops/field/queue.js";
import { resolveScanLocally } from "../../../client/sync/field-ops.js";
import { AT, thingRow } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const OTHER_LOC = "0190a000-0000-7000-8000-000000000009";
const id = (n: number) => `0190a000-0000-7000-8000-${String(n).padStart(12, "0")}`;
const stamps = { rowVersion: 1, createdAt: AT, updatedAt: AT, deletedAt: null };
const place: PlaceRow = {
  id: id(2),
  locationId: LOC,
  parentId: null,
  kindId: null,
  name: "Garage",
  isUnplaced: false,
  shortCode: "P2P3Q4",
  fields: {},
  ...stamps,
};
const location: LocationRow = {
  id: LOC,
  accountId: id(50),
  name: "Home",
  isPersonal: true,
  requiresTwoFactor: false,
  viewersSeeMoney: true,
  secretRevealRoles: [],
  scopeVersion: 1,
  ...stamps,
};
const code = (n: number, c: string, over: Partial<CodeRow>): CodeRow => ({
  id: id(n),
  locationId: LOC,
  code: c,
  thingId: null,
  placeId: null,
  sheetId: null,
  claimedAt: null,
  claimedBy: null,
  ...stamps,
  ...over,
});

describe("reading a scan on the device", () => {
  let db: InventoryDb;
  beforeEach(async () => {
    db = new InventoryDb(`test-${Math.random()}`);
    await db.things.bulkPut([
      thingRow({ id: id(10), locationId: LOC, placeId: place.id }, { name: "Drill", shortCode: "K7M4QX", serial: "4006381333931" }),
      thingRow({ id: id(11), locationId: LOC, placeId: place.id }, { name: "Old saw", shortCode: "Z9Z9Z9", deletedAt: AT }),
      thingRow({ id: id(12), locationId: LOC, placeId: place.id }, { name: "Box", shortCode: "B2B3B4", isContainer: true }),
      thingRow({ id: id(13), locationId: LOC, placeId: place.id }, { name: "Cable A", serial: "96385074" }),
      thingRow({ id: id(14), locationId: OTHER_LOC, placeId: null }, { name: "Cable B", serial: "96385074" }),
    ]);
    await db.places.put(place);
    await db.locations.put(location);
    await db.codes.bulkPut([
      code(20, "H7H7H7", { thingId: id(10) }),
      code(21, "FREE22", { sheetId: id(30) }),
      code(22, "GQNE22", { sheetId: id(30), deletedAt: AT }),
    ]);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it("a code, typed any way or as a label link of any origin, opens its thing or place", async () => {
    const drill = { outcome: "open", target: { kind: "thing", id: id(10), locationId: LOC } };
    expect(await resolveScanLocally(db, "k7m-4qx")).toEqual(drill);
    expect(await resolveScanLocally(db, "https://inventory.example/c/K7M4QX")).toEqual(drill);
    expect(await resolveScanLocally(db, "P2P-3Q4")).toEqual({ outcome: "open", target: { kind: "place", id: place.id, locationId: LOC } });
    // An older code of the thing, kept in the codes table.
    expect(await resolveScanLocally(db, "H7H7H7")).toEqual(drill);
  });

  it("a deleted thing's code and an unknown code are not found; a free label is offered for claiming", async () => {
    expect(await resolveScanLocally(db, "Z9Z9Z9")).toEqual({ outcome: "not_found" });
    expect(await resolveScanLocally(db, "Q2Q2Q2")).toEqual({ outcome: "not_found" });
    expect(await resolveScanLocally(db, "GQNE22")).toEqual({ outcome: "not_found" });
    expect(await resolveScanLocally(db, "/c/free22")).toEqual({ outcome: "claim", locationId: LOC, code: "FREE22" });
  });

  it("a label claimed on this device opens what it was claimed for before the claim is pushed", async () => {
    await claimCode(db, LOC, "FREE22", "thing", id(12));
    expect(await resolveScanLocally(db, "FREE22")).toEqual({ outcome: "open", target: { kind: "thing", id: id(12), locationId: LOC } });
  });

  it("a location link switches to a location the device holds, and finds nothing otherwise", async () => {
    expect(await resolveScanLocally(db, `https://x.example/l/${LOC}`)).toEqual({ outcome: "switch_location", locationId: LOC });
    expect(await resolveScanLocally(db, `/l/${OTHER_LOC}`)).toEqual({ outcome: "not_found" });
  });

  it("a product barcode opens the one thing with that serial, lists several, or says it is on nothing", async () => {
    expect(await resolveScanLocally(db, "4006381333931")).toEqual({ outcome: "open", target: { kind: "thing", id: id(10), locationId: LOC } });
    const several = await resolveScanLocally(db, "96385074", "ean_8");
    expect(several.outcome === "candidates" && several.candidates.map((c) => [c.name, c.locationName])).toEqual([
      ["Cable A", "Home"],
      ["Cable B", ""],
    ]);
    expect(await resolveScanLocally(db, "5901234123457")).toEqual({ outcome: "barcode", barcode: { code: "5901234123457", lookupEnabled: false } });
    expect(await resolveScanLocally(db, "  hello there ")).toEqual({ outcome: "text", text: "hello there" });
  });

  it("a box check is one op with its own id and the time it was made", async () => {
    const checkId = await recordBoxCheck(db, LOC, id(12), { seen: [id(10)], notHere: [], split: [], movedIn: [] });
    const [entry] = await db.outbox.toArray();
    expect(entry!.op).toMatchObject({ name: "boxcheck.record", locationId: LOC, args: { id: checkId, containerId: id(12), seen: [id(10)] } });
    expect(entry!.op.name === "boxcheck.record" && entry!.op.args.at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});
