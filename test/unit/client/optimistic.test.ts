import { describe, expect, it } from "vitest";
import type { Op } from "../../../sync/ops.js";
import type { InboxRow, ThingRow } from "../../../client/db/rows.js";
import { shapesOf } from "../../../client/ops/index.js";
import { overlay } from "../../../client/sync/optimistic.js";
import { AT as at, thingRow } from "./rows.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const PLACE = "0190a000-0000-7000-8000-000000000002";
let n = 0;
const opId = () => `0190a000-0000-7000-8000-${String(++n).padStart(12, "0")}`;
const op = <T extends Op>(o: Omit<T, "id" | "at">): T => ({ ...o, id: opId(), at }) as T;

const serverThing = (over: Partial<ThingRow> = {}): ThingRow =>
  thingRow({ id: "0190a000-0000-7000-8000-0000000000aa", locationId: LOC, placeId: PLACE }, { name: "Lamp", rowVersion: 2, ...over });

describe("optimistic apply", () => {
  it("shows a capture where the person's own captures go straight in as an active thing with no inbox item", () => {
    const id = "0190a000-0000-7000-8000-0000000000cc";
    const capture = op<Extract<Op, { name: "thing.capture" }>>({ name: "thing.capture", locationId: LOC, args: { id, name: "Hose" } });
    const state = overlay({}, [capture], new Set([LOC]));
    expect(state.things.get(id)).toMatchObject({ name: "Hose", lifecycle: "active", pending: true });
    expect(state.inbox.has(id)).toBe(false);
    // Elsewhere it waits as a draft.
    expect(overlay({}, [capture], new Set(["0190a000-0000-7000-8000-0000000000dd"])).inbox.get(id)).toMatchObject({ kind: "draft" });
  });

  it("shows a capture at once, as a draft with its inbox item, marked pending", () => {
    const capture = op<Extract<Op, { name: "thing.capture" }>>({
      name: "thing.capture",
      locationId: LOC,
      args: { id: "0190a000-0000-7000-8000-0000000000bb", name: "Drill", placeId: PLACE },
    });
    const state = overlay({}, [capture]);
    expect(state.things.get("0190a000-0000-7000-8000-0000000000bb")).toMatchObject({
      name: "Drill",
      lifecycle: "draft",
      placeId: PLACE,
      quantity: "1",
      pending: true,
      rowVersion: 0,
    });
    expect(state.inbox.get("0190a000-0000-7000-8000-0000000000bb")).toMatchObject({
      kind: "draft",
      status: "open",
      thingId: "0190a000-0000-7000-8000-0000000000bb",
    });
  });

  it("replays ops in push order over the server's row, which it never edits", () => {
    const server = serverThing();
    const ops: Op[] = [
      op({ name: "thing.update", locationId: LOC, args: { id: server.id, patch: { name: "Desk lamp", quantity: 2 } }, baseVersion: 2 }),
      op({ name: "thing.update", locationId: LOC, args: { id: server.id, patch: { name: "Reading lamp" } }, baseVersion: 2 }),
      op({ name: "thing.move", locationId: LOC, args: { id: server.id, containerId: "0190a000-0000-7000-8000-0000000000cc" } }),
    ];
    const row = overlay({ things: [server] }, ops).things.get(server.id);
    expect(row).toMatchObject({
      name: "Reading lamp",
      quantity: "2",
      placeId: null,
      containerId: "0190a000-0000-7000-8000-0000000000cc",
      rowVersion: 2,
      pending: true,
    });
    expect(server.name).toBe("Lamp");
  });

  it("a patch key left undefined does not blank the field", () => {
    const server = serverThing({ serial: "SN-1" });
    const row = overlay({ things: [server] }, [
      op({ name: "thing.update", locationId: LOC, args: { id: server.id, patch: { name: "X", serial: undefined } } }),
    ]).things.get(server.id);
    expect(row?.serial).toBe("SN-1");
  });

  it("dropping an op (removing it from the outbox) brings the server's row back unchanged", () => {
    const server = serverThing();
    const edit = op<Op>({ name: "thing.update", locationId: LOC, args: { id: server.id, patch: { name: "Desk lamp" } } });
    expect(overlay({ things: [server] }, [edit]).things.get(server.id)?.name).toBe("Desk lamp");
    expect(overlay({ things: [server] }, []).things.get(server.id)).toBe(server);
  });

  it("review actions take the item out of the inbox: accept activates the draft, dismiss discards it", () => {
    const draft = serverThing({ id: "0190a000-0000-7000-8000-0000000000dd", lifecycle: "draft" });
    const item: InboxRow = {
      id: draft.id,
      locationId: LOC,
      kind: "draft",
      status: "open",
      thingId: draft.id,
      batchId: draft.id,
      capturedAt: at,
      createdBy: null,
      payload: {},
      undoEventId: null,
      resolvedAt: null,
      resolvedBy: null,
      rowVersion: 1,
      createdAt: at,
      updatedAt: at,
      deletedAt: null,
    };
    const accepted = overlay({ things: [draft], inbox: [item] }, [op({ name: "inbox.accept", locationId: LOC, args: { id: item.id } })]);
    expect(accepted.inbox.size).toBe(0);
    expect(accepted.things.get(draft.id)?.lifecycle).toBe("active");
    const dismissed = overlay({ things: [draft], inbox: [item] }, [op({ name: "inbox.dismiss", locationId: LOC, args: { id: item.id } })]);
    expect(dismissed.inbox.size).toBe(0);
    expect(dismissed.things.has(draft.id)).toBe(false);
  });

  it("an edit of a row this device does not have is ignored, not invented", () => {
    const state = overlay({}, [op({ name: "thing.update", locationId: LOC, args: { id: "0190a000-0000-7000-8000-0000000000ee", patch: { name: "Ghost" } } })]);
    expect(state.things.size).toBe(0);
  });

  it("PU7 knows on which shapes an op's txid arrives", () => {
    expect(shapesOf(op({ name: "thing.capture", locationId: LOC, args: { id: opId() } }))).toEqual(["things", "inbox"]);
    expect(shapesOf(op({ name: "place.create", locationId: LOC, args: { id: opId(), name: "Shed" } }))).toEqual(["places"]);
  });
});
