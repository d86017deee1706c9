/**
 * What a succeeded receipt extraction does: the purchase takes what was read, its receipt item's
 * payload mirrors it (devices read receipts there; purchases are not synced), and a currency
 * printed as a symbol several currencies share raises a `currency` item with the options, the
 * location's own currencies first (the system command inbox.raise). Like a thing's extraction, the item's rowVersion stays: this is
 * the server's reading, not a person's change.
 */
import { eq, sql } from "drizzle-orm";
import { rows, type Tx } from "../../db/client.js";
import { inboxItems, purchases } from "../../db/schema/index.js";
import { v7 as uuidv7 } from "uuid";
import { SYSTEM_ACTOR } from "../../commands/executor.js";
import { runSystem } from "../write.js";
import type { ReadReceipt } from "./answer.js";
import { likeliestFirst, readCurrency } from "./currency.js";
import { mirrorReceipt } from "./mirror.js";

type PurchaseRow = typeof purchases.$inferSelect;

export async function applyReceipt(tx: Tx, purchaseId: string, read: ReadReceipt, now: Date): Promise<{ applied: string[] } | { failed: string }> {
  const [p] = await tx.select().from(purchases).where(eq(purchases.id, purchaseId)).for("update");
  if (!p || p.deletedAt) return { failed: "purchase_deleted" };
  const seen = readCurrency(read.currencySeen);
  const values = {
    vendorSeen: read.vendorSeen,
    purchasedOn: read.purchasedOn,
    currencySeen: read.currencySeen,
    currency: seen && "code" in seen ? seen.code : p.currency,
    total: read.total,
    tax: read.tax,
    lines: read.lines,
    status: p.status === "reading" ? ("read" as const) : p.status,
    updatedAt: now,
  };
  const [next] = await tx.update(purchases).set(values).where(eq(purchases.id, p.id)).returning();
  await mirrorReceipt(tx, next!, now);
  // A decided receipt asks nothing more; an open one asks which currency a shared symbol meant.
  if (seen && "options" in seen && p.status === "reading" && !p.currency) await raiseCurrencyItem(tx, next!, read.currencySeen!, seen.options);
  const applied = (["vendorSeen", "purchasedOn", "currency", "total", "tax"] as const).filter((k) => values[k] !== null);
  return { applied: read.lines.length ? [...applied, "lines"] : applied };
}

async function raiseCurrencyItem(tx: Tx, p: PurchaseRow, seen: string, options: string[]): Promise<void> {
  const used = await rows<{ currency: string; n: number }>(
    tx,
    sql`SELECT currency, count(*)::int AS n FROM purchases WHERE location_id = ${p.locationId} AND currency IS NOT NULL AND deleted_at IS NULL
        GROUP BY currency ORDER BY n DESC, currency`,
  );
  const [receipt] = await tx.select({ batchId: inboxItems.batchId, capturedAt: inboxItems.capturedAt }).from(inboxItems).where(eq(inboxItems.id, p.id));
  const args = {
    id: uuidv7(),
    kind: "currency" as const,
    thingId: null,
    // Beside its receipt in the inbox.
    ...(receipt ? { batchId: receipt.batchId, capturedAt: receipt.capturedAt.toISOString() } : {}),
    createdBy: p.createdBy,
    payload: { currency: { seen, options: likeliestFirst(options, used) }, purchaseId: p.id },
  };
  await runSystem(tx, SYSTEM_ACTOR, { name: "inbox.raise", locationId: p.locationId, args }, { undoWindowMs: 0 });
}
