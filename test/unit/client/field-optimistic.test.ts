/**
 * What a device shows of its own box checks and label claims before the server answers: the same
 * rules as server/modules/box-checks/ (a sighting only moves lastSeenAt later; "not here" after the
 * last sighting makes a thing uncertain; found things move into the box), and a claimed label as
 * the box's code.
 */
import { describe, expect, it } from "vitest";
import type { Op } from "../../../sync/ops.js";
import type { ThingRow } from "../../../client/db/rows.js";
import { timeMs } from "../../../client/ops/rows.js";
import { overlay } from "../../../client/sync/optimistic.js";
import { thingRow } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const PLACE = "0190a000-0000-7000-8000-000000000002";
const BOX = "0190a000-0000-7000-8000-0000000000b0";
let ops = 0;
const id = (n: number) => `0190a000-0000-7000-8000-${String(n).padStart(12, "0")}`;
const thing = (n: number, over: Partial<ThingRow> = {}) =>
  thingRow({ id: id(n), locationId: LOC, placeId: null }, { containerId: BOX, rowVersion: 1, ...over });
const box = thingRow({ id: BOX, locationId: LOC, placeId: PLACE }, { isContainer: true, rowVersion: 1, lastSeenAt: null });

function check(at: string, lists: { seen?: string[]; notHere?: string[]; split?: { thingId: string; quantity: string }[]; movedIn?: string[] }): Op {
  return {
    id: id(900 + ++ops),
    name: "boxcheck.record",
    locationId: LOC,
    at,
    args: { id: id(800), containerId: BOX, at, ...lists },
  };
}

describe("box checks on the device", () => {
  it("reads timestamps as shapes (Postgres text) and ops (ISO) carry them", () => {
    expect(timeMs("2026-11-22 12:00:00.1+00")).toBe(Date.parse("2026-11-22T12:00:00.100Z"));
    expect(timeMs("2026-11-22T12:00:00.100Z")).toBe(Date.parse("2026-11-22T12:00:00.100Z"));
  });

  it("seen and part-here things are sighted, not-here things become uncertain, found things move into the box", () => {
    const [a, b, c, d] = [thing(1, { lastSeenAt: "2026-11-01 09:00:00+00" }), thing(2), thing(3), thing(4, { containerId: null, placeId: PLACE })];
    const at = "2026-11-22T10:00:00.000Z";
    const state = overlay({ things: [box, a, b, c, d] }, [
      check(at, { seen: [a.id], notHere: [b.id], split: [{ thingId: c.id, quantity: "1" }], movedIn: [d.id] }),
    ]);
    expect(state.things.get(a.id)).toMatchObject({ lastSeenAt: at, missingSince: null, pending: true });
    expect(state.things.get(b.id)).toMatchObject({ missingSince: at });
    expect(state.things.get(c.id)).toMatchObject({ lastSeenAt: at, missingSince: null });
    expect(state.things.get(d.id)).toMatchObject({ containerId: BOX, placeId: null, lastSeenAt: at });
    expect(state.things.get(BOX)).toMatchObject({ lastSeenAt: at });
  });

  it("two checks in either order end the same: the later finding wins", () => {
    const hammer = thing(1);
    const early = check("2026-11-22T10:00:00.000Z", { seen: [hammer.id] });
    const late = check("2026-11-22T11:00:00.000Z", { notHere: [hammer.id] });
    for (const ops of [
      [early, late],
      [late, early],
    ])
      expect(overlay({ things: [hammer] }, ops).things.get(hammer.id)).toMatchObject({
        lastSeenAt: "2026-11-22T10:00:00.000Z",
        missingSince: "2026-11-22T11:00:00.000Z",
      });
    const back = check("2026-11-22T12:00:00.000Z", { seen: [hammer.id] });
    expect(overlay({ things: [hammer] }, [late, back]).things.get(hammer.id)).toMatchObject({ missingSince: null });
  });

  it("a not-here older than the thing's last sighting changes nothing; an earlier one keeps the first date", () => {
    const seenLater = thing(1, { lastSeenAt: "2026-11-22 12:00:00+00" });
    expect(
      overlay({ things: [seenLater] }, [check("2026-11-22T10:00:00.000Z", { notHere: [seenLater.id] })]).things.get(seenLater.id)!.missingSince,
    ).toBeNull();
    const missing = thing(2, { missingSince: "2026-11-20 08:00:00+00" });
    expect(overlay({ things: [missing] }, [check("2026-11-22T10:00:00.000Z", { notHere: [missing.id] })]).things.get(missing.id)!.missingSince).toBe(
      "2026-11-20 08:00:00+00",
    );
  });

  it("a claimed label is the box's code at once", () => {
    const claim: Op = { id: id(700), name: "code.claim", locationId: LOC, at: "2026-11-22T10:00:00.000Z", args: { code: "K7M4QX", kind: "thing", id: BOX } };
    expect(overlay({ things: [box] }, [claim]).things.get(BOX)).toMatchObject({ shortCode: "K7M4QX", pending: true });
  });
});
