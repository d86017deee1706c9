/**
 * Refused at once (issue 19, point 6): the device does not queue what it knows the server would
 * refuse (sync/op-rules.ts, the rules the server applies), and offers re-apply (DR6) only where
 * it can succeed.
 */
import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InventoryDb } from "../../../client/db/database.js";
import type { InboxRow } from "../../../client/db/rows.js";
import { reapplyCanSucceed, RefusedHere } from "../../../client/sync/checks.js";
import { enqueue } from "../../../client/sync/outbox.js";
import { canReapply, opRefusal } from "../../../sync/op-rules.js";
import type { Role } from "../../../shared/roles.js";
import { AT, thingRow } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const PLACE = "0190a000-0000-7000-8000-000000000002";
const BOX = "0190a000-0000-7000-8000-000000000003";
const BOLT = "0190a000-0000-7000-8000-000000000004";
const stamps = { rowVersion: 1, createdAt: AT, updatedAt: AT, deletedAt: null };

describe("the shared rules", () => {
  it("a role below the op's is refused; an unknown role is not guessed at", () => {
    expect(opRefusal("thing.delete", { role: "viewer" })).toMatchObject({ reason: "forbidden", rule: "role" });
    expect(opRefusal("type.create", { role: "member" })).toMatchObject({ reason: "forbidden" });
    expect(opRefusal("type.create", { role: "admin" })).toBeNull();
    expect(opRefusal("thing.delete", { role: undefined })).toBeNull();
  });
  it("a non-empty place or container is refused, the Unplaced area always", () => {
    expect(opRefusal("thing.delete", { role: "owner", holds: { places: 0, things: 2 } })).toMatchObject({ reason: "conflict", rule: "holds_things" });
    expect(opRefusal("place.delete", { role: "owner", holds: { places: 1, things: 0 } })).toMatchObject({ rule: "holds_places" });
    expect(opRefusal("place.delete", { role: "owner", holds: { isUnplaced: true, places: 0, things: 0 } })).toMatchObject({ reason: "invalid" });
    expect(opRefusal("place.delete", { role: "owner", holds: { places: 0, things: 0 } })).toBeNull();
  });
  it("DR6 re-apply: stale yes; role, non-empty box, missing row only once that changed; invalid never", () => {
    const facts = (role: Role | undefined, rowsLive = true, things = 0) => ({ role, rowsLive, holds: { places: 0, things } });
    expect(canReapply("thing.update", "stale", facts("member"))).toBe(true);
    expect(canReapply("thing.update", "stale", facts("member", false))).toBe(false);
    expect(canReapply("thing.update", "forbidden", facts("viewer"))).toBe(false);
    expect(canReapply("thing.update", "forbidden", facts("member"))).toBe(true);
    expect(canReapply("thing.delete", "conflict", facts("member", true, 1))).toBe(false);
    expect(canReapply("thing.delete", "conflict", facts("member", true, 0))).toBe(true);
    expect(canReapply("inbox.accept", "conflict", facts("member"))).toBe(false);
    expect(canReapply("thing.move", "not_found", facts("member", false))).toBe(false);
    expect(canReapply("thing.move", "not_found", facts("member", true))).toBe(true);
    expect(canReapply("thing.update", "invalid", facts("owner"))).toBe(false);
  });
});

describe("on the device", () => {
  let db: InventoryDb;
  const role = (r: Role) => db.memberships.put({ id: "0190a000-0000-7000-8000-0000000000aa", locationId: LOC, userId: "u", role: r, ...stamps });
  beforeEach(async () => {
    db = new InventoryDb(`test-${Math.random()}`);
    await db.places.put({ id: PLACE, locationId: LOC, parentId: null, kindId: null, name: "Shed", isUnplaced: false, shortCode: null, fields: {}, ...stamps });
    await db.things.bulkPut([
      thingRow({ id: BOX, locationId: LOC, placeId: PLACE }, { isContainer: true, name: "Box", nameKey: "box" }),
      thingRow({ id: BOLT, locationId: LOC, placeId: null }, { containerId: BOX, name: "Bolt", nameKey: "bolt" }),
    ]);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it("does not queue deleting a box that holds a thing, nor anything from a viewer", async () => {
    await role("member");
    await expect(enqueue(db, { name: "thing.delete", locationId: LOC, args: { id: BOX } })).rejects.toBeInstanceOf(RefusedHere);
    await expect(enqueue(db, { name: "place.delete", locationId: LOC, args: { id: PLACE } })).rejects.toMatchObject({ refusal: { rule: "holds_things" } });
    await role("viewer");
    await expect(enqueue(db, { name: "thing.update", locationId: LOC, args: { id: BOLT, patch: { name: "Nut" } } })).rejects.toMatchObject({
      refusal: { rule: "role" },
    });
    expect(await db.outbox.count()).toBe(0);
  });

  it("lets the box go once this device has moved its content out, offline", async () => {
    await role("member");
    await enqueue(db, { name: "thing.move", locationId: LOC, args: { id: BOLT, placeId: PLACE } });
    await enqueue(db, { name: "thing.delete", locationId: LOC, args: { id: BOX } });
    expect(await db.outbox.count()).toBe(2);
  });

  it("offers re-apply of a refused box delete only once the box is empty", async () => {
    await role("member");
    const item = {
      id: "0190a000-0000-7000-8000-0000000000bb",
      locationId: LOC,
      kind: "sync_drop",
      status: "open",
      thingId: null,
      batchId: "0190a000-0000-7000-8000-0000000000bb",
      capturedAt: AT,
      createdBy: null,
      undoEventId: null,
      resolvedAt: null,
      resolvedBy: null,
      payload: { syncDrop: { op: { id: BOX, name: "thing.delete", locationId: LOC, args: { id: BOX }, at: AT }, reason: "conflict" } },
      ...stamps,
    } as InboxRow;
    expect(await reapplyCanSucceed(db, item)).toBe(false);
    await db.things.delete(BOLT);
    expect(await reapplyCanSucceed(db, item)).toBe(true);
  });
});
