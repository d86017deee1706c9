import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InventoryDb } from "../../../client/db/database.js";
import { CONFIRM_SLACK_MS, confirmTxids, enqueue, nextBatch, recordVerdicts, retireApplied, unconfirmedOps } from "../../../client/sync/outbox.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const thingId = (i: number) => `0190a000-0000-7000-8000-${String(100 + i).padStart(12, "0")}`;
const INBOX = "0190a000-0000-7000-8000-000000000999";

describe("outbox", () => {
  let db: InventoryDb;
  beforeEach(() => {
    db = new InventoryDb(`test-${Math.random()}`);
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  const capture = (i: number) => enqueue(db, { name: "thing.capture", locationId: LOC, args: { id: thingId(i), name: `Thing ${i}` } });

  it("gives each op a new uuid and time and keeps push order", async () => {
    const ops = [await capture(1), await capture(2), await capture(3)];
    expect(new Set(ops.map((o) => o.id)).size).toBe(3);
    const batch = await nextBatch(db, 2);
    expect(batch.map((e) => e.op.id)).toEqual([ops[0]!.id, ops[1]!.id]);
    expect(batch.every((e) => e.state === "pending")).toBe(true);
  });

  it("PU4 applied ops wait for their txid; dropped ops leave at once (the server kept them as sync_drop items)", async () => {
    const [a, b] = [await capture(1), await capture(2)];
    const batch = await nextBatch(db, 10);
    const counts = await recordVerdicts(db, batch, [
      { id: a.id, status: "applied", rowVersion: 1, txid: "901" },
      { id: b.id, status: "dropped", reason: "forbidden", inboxItemId: INBOX },
    ]);
    expect(counts).toEqual({ applied: 1, dropped: 1 });
    const left = await db.outbox.toArray();
    expect(left.map((e) => [e.op.id, e.state, e.txid])).toEqual([[a.id, "applied", "901"]]);
    expect(await nextBatch(db, 10)).toEqual([]);
    // Still shown optimistically until the txid arrives.
    expect((await unconfirmedOps(db)).map((o) => o.id)).toEqual([a.id]);
  });

  it("PU7 an op's optimistic copy goes when its txid arrives on a shape, even if the shape was faster than the push's answer", async () => {
    const [a, b] = [await capture(1), await capture(2)];
    await confirmTxids(db, ["902"]);
    const batch = await nextBatch(db, 10);
    await recordVerdicts(db, batch, [
      { id: a.id, status: "applied", rowVersion: 1, txid: "901" },
      { id: b.id, status: "applied", rowVersion: 1, txid: "902" },
    ]);
    expect((await db.outbox.toArray()).map((e) => e.op.id)).toEqual([a.id]);
    await confirmTxids(db, ["901"]);
    expect(await db.outbox.count()).toBe(0);
  });

  it("PU6 a replayed op answered duplicate counts as what it was", async () => {
    const a = await capture(1);
    await recordVerdicts(db, await nextBatch(db, 10), [{ id: a.id, status: "duplicate", was: "applied", rowVersion: 1, txid: "903" }]);
    expect((await db.outbox.toArray())[0]).toMatchObject({ state: "applied", txid: "903" });
  });

  it("retires an applied op whose txid was missed once a later read of its shape is up to date", async () => {
    const a = await capture(1);
    await recordVerdicts(db, await nextBatch(db, 10), [{ id: a.id, status: "applied", rowVersion: 1, txid: "904" }], 1_000_000);
    await retireApplied(db, "places", 1_000_000 + CONFIRM_SLACK_MS + 1);
    expect(await db.outbox.count()).toBe(1);
    await retireApplied(db, "things", 1_000_000 + 10);
    expect(await db.outbox.count()).toBe(1);
    await retireApplied(db, "things", 1_000_000 + CONFIRM_SLACK_MS + 1);
    expect(await db.outbox.count()).toBe(0);
  });

  it("survives the page: a new handle on the same database sees the queued ops", async () => {
    await capture(1);
    const again = new InventoryDb(db.name);
    expect((await nextBatch(again, 10)).map((e) => e.op.name)).toEqual(["thing.capture"]);
    again.close();
  });
});
