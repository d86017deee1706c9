/**
 * A purchase's mirror in its receipt inbox item (the same id): devices read receipts there, since
 * purchases are not synced. Written through the core's inbox-item writer, bumping no version.
 */
import type { ReceiptPayload } from "../../../shared/receipts.js";
import { mirrorInboxPayload } from "../../commands/inbox-items.js";
import type { Tx } from "../../db/client.js";
import type { PurchaseLine, purchases } from "../../db/schema/index.js";

type PurchaseRow = typeof purchases.$inferSelect;

/** numeric(18, 4) as stored ("12.3000") as the receipt shows it ("12.30"). */
export function moneyOut(v: string | null): string | undefined {
  if (v === null) return undefined;
  const [whole, frac = ""] = v.split(".");
  const kept = frac.replace(/0+$/, "");
  return `${whole}.${kept.padEnd(2, "0")}`;
}

/** The receipt as its item's payload keeps it. */
export function receiptPayload(p: PurchaseRow): ReceiptPayload {
  return {
    purchaseId: p.id,
    pages: p.fileIds.map((fileId) => ({ fileId })),
    ...(p.vendorSeen ? { vendorSeen: p.vendorSeen } : {}),
    ...(p.purchasedOn ? { purchasedOn: p.purchasedOn } : {}),
    ...(p.currency ? { currency: p.currency } : {}),
    ...(p.total !== null ? { total: moneyOut(p.total)! } : {}),
    ...(p.tax !== null ? { tax: moneyOut(p.tax)! } : {}),
    lines: p.lines.map((l: PurchaseLine) => ({
      index: l.index,
      description: l.description,
      quantity: l.quantity,
      ...(l.unitPrice !== undefined ? { unitPrice: l.unitPrice } : {}),
      ...(l.lineTotal !== undefined ? { lineTotal: l.lineTotal } : {}),
      flagged: l.flagged,
    })),
  };
}

/** Writes the purchase's mirror into its receipt item (the same id), open or not. */
export async function mirrorReceipt(tx: Tx, p: PurchaseRow, now: Date): Promise<void> {
  await mirrorInboxPayload(tx, "receipt", { by: "id", ids: [p.id], kinds: ["receipt"], open: false }, receiptPayload(p), now);
}
