/**
 * The outbox: every change made on the device is an op stored here first (so it survives reloads
 * and a dead battery), then pushed in order. This file reads and writes the outbox; pushing is
 * pusher.ts, and what the screens show while ops wait is optimistic.ts.
 */
import { v7 as uuidv7 } from "uuid";
import type { Op } from "../../sync/ops.js";
import type { OpResult } from "../../sync/protocol.js";
import type { SyncedTableName } from "../db/rows.js";
import { getMeta, setMeta, type InventoryDb, type OutboxEntry } from "../db/database.js";
import { refuseHere } from "./checks.js";
import { shapesOf } from "../ops/index.js";

/** An op before it is queued: the outbox gives it its id and time. */
export type OpDraft = Op extends infer O ? (O extends Op ? Omit<O, "id" | "at"> : never) : never;

const CHANNEL = "inventory-outbox";

/** Tells the pushing tab (maybe another one) that there is something to push. */
export function announceOutbox(): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage("changed");
  channel.close();
  outboxEvents.dispatchEvent(new Event("changed"));
}

/** Same-context listeners (BroadcastChannel does not deliver to its own sender). */
export const outboxEvents = new EventTarget();

export function onOutboxChanged(listener: () => void): () => void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = listener;
  outboxEvents.addEventListener("changed", listener);
  return () => {
    channel.close();
    outboxEvents.removeEventListener("changed", listener);
  };
}

/**
 * Queues an op (with the photos it needs uploaded first). Works with no network. An op the device
 * knows the server would refuse (checks.ts) is not queued: this throws RefusedHere at once.
 */
export async function enqueue(db: InventoryDb, draft: OpDraft, blobIds: string[] = []): Promise<Op> {
  await refuseHere(db, draft);
  const op: Op = { ...draft, id: uuidv7(), at: new Date().toISOString() };
  await db.outbox.add({ op, state: "pending", blobIds });
  announceOutbox();
  return op;
}

/** The outbox reader: the oldest pending ops, in push order. */
export async function nextBatch(db: InventoryDb, max: number): Promise<OutboxEntry[]> {
  const out: OutboxEntry[] = [];
  await db.outbox
    .orderBy("seq")
    .until(() => out.length >= max)
    .each((e) => {
      if (e.state === "pending") out.push(e);
    });
  return out;
}

/** Every op whose optimistic copy still shows (pending or awaiting its txid), in push order. */
export async function unconfirmedOps(db: InventoryDb): Promise<Op[]> {
  const all = await db.outbox.orderBy("seq").toArray();
  return all.filter((e) => e.state !== "rejected").map((e) => e.op);
}

const SEEN_TXIDS = "seenTxids";
const SEEN_KEEP = 500;

/**
 * Verdicts of one push (sync/SPEC.md PU4), in the order of `entries`. Applied ops wait for their
 * txid, unless a shape already delivered it (a live stream can beat the push's answer). Dropped
 * ops leave the outbox: the server kept them in a sync_drop inbox item (DR2), which is where the
 * person sees and re-applies them.
 */
export async function recordVerdicts(
  db: InventoryDb,
  entries: OutboxEntry[],
  results: OpResult[],
  now = Date.now(),
): Promise<{ applied: number; dropped: number }> {
  let applied = 0;
  let dropped = 0;
  await db.transaction("rw", db.outbox, db.meta, async () => {
    const seen = new Set((await getMeta<string[]>(db, SEEN_TXIDS)) ?? []);
    for (const [i, entry] of entries.entries()) {
      const r = results[i];
      if (!r || r.id !== entry.op.id || entry.seq === undefined) continue;
      const wasApplied = r.status === "applied" || (r.status === "duplicate" && r.was === "applied");
      if (!wasApplied) {
        dropped++;
        await db.outbox.delete(entry.seq);
        continue;
      }
      applied++;
      const txid = r.txid;
      if (txid === undefined || seen.has(txid)) await db.outbox.delete(entry.seq);
      else await db.outbox.update(entry.seq, { state: "applied", txid, appliedAt: now });
    }
  });
  return { applied, dropped };
}

/** A shape delivered these txids: ops applied in them are now in the server rows (PU7). */
export async function confirmTxids(db: InventoryDb, txids: string[]): Promise<void> {
  if (!txids.length) return;
  await db.transaction("rw", db.outbox, db.meta, async () => {
    const seen = [...((await getMeta<string[]>(db, SEEN_TXIDS)) ?? []), ...txids];
    await setMeta(db, SEEN_TXIDS, seen.slice(-SEEN_KEEP));
    const set = new Set(txids);
    await db.outbox.filter((e) => e.state === "applied" && e.txid !== undefined && set.has(e.txid)).delete();
  });
}

/** How long after its verdict an applied op must have reached an up-to-date shape read. */
export const CONFIRM_SLACK_MS = 5_000;

/**
 * Safety net for a txid we never saw (the stream restarted from a snapshot, which carries no
 * txids): once a shape read that began well after the op was applied is up to date, the server
 * rows hold the op's effect, so its optimistic copy can go.
 */
export async function retireApplied(db: InventoryDb, shape: SyncedTableName, upToDateAt: number): Promise<void> {
  await db.outbox.filter((e) => e.state === "applied" && (e.appliedAt ?? 0) < upToDateAt - CONFIRM_SLACK_MS && shapesOf(e.op).includes(shape)).delete();
}

/** The server could not read this op at all (400 naming it): keep it visible, stop pushing it. */
export async function rejectEntry(db: InventoryDb, seq: number, error: string): Promise<void> {
  await db.outbox.update(seq, { state: "rejected", error });
}
