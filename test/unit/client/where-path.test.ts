/** Where a thing is, as its page shows it: places from the top, then boxes, each box with the code on its label. */
import { describe, expect, it } from "vitest";
import type { PlaceRow, ThingRow } from "../../../client/db/rows.js";
import { wherePath } from "../../../client/ui/names.js";
import { AT, thingRow } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const t = (key: string) => key;
const place = (id: string, name: string, parentId: string | null): PlaceRow => ({
  id,
  locationId: LOC,
  parentId,
  kindId: null,
  name,
  isUnplaced: false,
  shortCode: "PLACE2",
  fields: {},
  rowVersion: 1,
  createdAt: AT,
  updatedAt: AT,
  deletedAt: null,
});

describe("wherePath", () => {
  const garage = place("0190a000-0000-7000-8000-00000000000a", "Garage", null);
  const shelf = place("0190a000-0000-7000-8000-00000000000b", "Shelf 2", garage.id);
  const crate = thingRow(
    { id: "0190a000-0000-7000-8000-00000000000c", locationId: LOC, placeId: shelf.id },
    { name: "Red crate", isContainer: true, shortCode: "K7M4QX" },
  );
  const tin = thingRow(
    { id: "0190a000-0000-7000-8000-00000000000d", locationId: LOC, placeId: null },
    { name: "Tin", isContainer: true, containerId: crate.id, shortCode: null },
  );
  const screw = thingRow({ id: "0190a000-0000-7000-8000-00000000000e", locationId: LOC, placeId: null }, { name: "Screws", containerId: tin.id });
  const places = new Map([garage, shelf].map((p) => [p.id, p]));
  const things = new Map<string, ThingRow>([crate, tin, screw].map((x) => [x.id, x]));

  it("names places and boxes from the top", () => {
    expect(wherePath(screw, places, things, t)).toBe("Garage › Shelf 2 › Red crate › Tin");
  });

  it("with codes, a box carries its label's code as printed; a box with no code yet (made offline) has none", () => {
    expect(wherePath(screw, places, things, t, true)).toBe("Garage › Shelf 2 › Red crate K7M-4QX › Tin");
  });
});
