/**
 * Moves on the device (client/sync/move-ops.ts): waiting ops replayed on the server's rows by the
 * server's rules (the same scan twice changes nothing, unpacked is final, a late older scan is
 * outrun), a guessed number for a box added offline, and a typed code read to a box of the move.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InventoryDb } from "../../../client/db/database.js";
import type { MoveBoxRow, MoveRow } from "../../../client/db/rows.js";
import { applyMoveOp, boxByCode, boxesOf, readMoves, type MoveState } from "../../../client/sync/move-ops.js";
import type { Op } from "../../../sync/ops.js";
import { AT, thingRow } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const id = (n: number) => `0190a000-0000-7000-8000-${String(n).padStart(12, "0")}`;
const stamps = { rowVersion: 1, createdAt: AT, updatedAt: AT, deletedAt: null };
const move: MoveRow = {
  id: id(10),
  locationId: LOC,
  toLocationId: null,
  toLocationName: null,
  name: "House",
  status: "active",
  createdBy: null,
  finishedAt: null,
  ...stamps,
};
const box = (n: number, over: Partial<MoveBoxRow> = {}): MoveBoxRow => ({
  id: id(100 + n),
  locationId: LOC,
  moveId: move.id,
  containerId: id(n),
  number: n,
  state: "packed",
  stateAt: AT,
  destinationPlaceId: null,
  destinationName: null,
  ...stamps,
  ...over,
});
let seq = 0;
const at = (min: number) => new Date(Date.parse(AT) + min * 60_000).toISOString();
const scan = (name: "box.load" | "box.unload" | "box.unpack", containerId: string, min: number): Op => ({
  id: id(900 + ++seq),
  name,
  locationId: LOC,
  at: at(min),
  args: { moveId: move.id, containerId, at: at(min) },
});
const state = (boxes: MoveBoxRow[]): MoveState => ({
  moves: new Map([[move.id, move]]),
  boxes: new Map(boxes.map((b) => [`${b.moveId}/${b.containerId}`, b])),
});
const stateOf = (s: MoveState, n: number) => s.boxes.get(`${move.id}/${id(n)}`)!.state;

describe("move ops on the device", () => {
  it("the same scan twice changes nothing; unpacked is final; an older load is outrun by a later change", () => {
    const s = state([box(1), box(2)]);
    applyMoveOp(s, scan("box.load", id(1), 1));
    const once = s.boxes.get(`${move.id}/${id(1)}`);
    applyMoveOp(s, scan("box.load", id(1), 2));
    expect(s.boxes.get(`${move.id}/${id(1)}`)).toEqual(once);
    expect(once).toMatchObject({ state: "in_transit", stateAt: at(1), pending: true });
    applyMoveOp(s, scan("box.unpack", id(1), 3));
    applyMoveOp(s, scan("box.load", id(1), 4));
    expect(stateOf(s, 1)).toBe("unpacked");
    // Box 2 unloaded at minute 5 on this phone, a load from minute 4 arrives after: outrun.
    applyMoveOp(s, scan("box.load", id(2), 6));
    applyMoveOp(s, scan("box.unload", id(2), 5));
    expect(stateOf(s, 2)).toBe("in_transit");
  });

  it("a box added offline gets the next number as a guess; the same container twice stays one box; a closed move does not change", () => {
    const s = state([box(1), box(2)]);
    const add = (containerId: string): Op => ({
      id: id(800 + ++seq),
      name: "box.add",
      locationId: LOC,
      at: AT,
      args: { id: id(700 + seq), moveId: move.id, containerId },
    });
    applyMoveOp(s, add(id(3)));
    applyMoveOp(s, add(id(3)));
    expect(boxesOf(s, move.id).map((b) => b.number)).toEqual([1, 2, 3]);
    applyMoveOp(s, { id: id(990), name: "move.update", locationId: LOC, at: AT, args: { id: move.id, patch: { status: "finished" } } });
    applyMoveOp(s, scan("box.load", id(1), 1));
    expect(stateOf(s, 1)).toBe("packed");
  });
});

describe("a typed code on the device", () => {
  let db: InventoryDb;
  beforeEach(() => {
    db = new InventoryDb(`moves-${Math.random()}`);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it("names a box of this move by its container's code, in any spelling; other codes name none", async () => {
    await db.things.bulkPut([
      thingRow({ id: id(1), locationId: LOC, placeId: id(50) }, { isContainer: true, shortCode: "K7M2QX" }),
      thingRow({ id: id(5), locationId: LOC, placeId: id(50) }, { isContainer: true, shortCode: "Z9Z9Z9" }),
    ]);
    await db.moves.put(move);
    await db.move_boxes.put(box(1));
    const { boxes } = await readMoves(db, LOC);
    const list = [...boxes.values()];
    expect((await boxByCode(db, list, "k7m-2qx"))?.number).toBe(1);
    expect(await boxByCode(db, list, "Z9Z-9Z9")).toBeNull();
    expect(await boxByCode(db, list, "nonsense")).toBeNull();
  });
});
