/**
 * A receipt item's `receipt` and a currency item's `currency` as the spec shows them, from the
 * item's payload (the purchase's mirror). A reader who may not see money in the location (a
 * viewer, unless the location lets viewers see money) gets `moneyHidden` and no amounts: no
 * total, tax or unit prices. The sync shape leaves them out for the same readers
 * (server/sync/shapes/query.ts).
 */
import { thumbUrl } from "../files/read.js";
import type { InboxCurrency, InboxReceipt, ReceiptPayload } from "../../../shared/receipts.js";

export function receiptOut(p: ReceiptPayload, seesMoney: boolean): InboxReceipt {
  return {
    purchaseId: p.purchaseId,
    pages: p.pages.map((f) => ({ fileId: f.fileId, thumbUrl: thumbUrl(f.fileId) })),
    ...(p.vendorSeen ? { vendorSeen: p.vendorSeen } : {}),
    ...(p.purchasedOn ? { purchasedOn: p.purchasedOn } : {}),
    ...(p.currency ? { currency: p.currency } : {}),
    ...(seesMoney && p.total ? { total: p.total } : {}),
    ...(seesMoney && p.tax ? { tax: p.tax } : {}),
    lines: p.lines.map((l) => ({
      index: l.index,
      description: l.description,
      quantity: l.quantity,
      ...(seesMoney && l.unitPrice ? { unitPrice: l.unitPrice } : {}),
      flagged: l.flagged,
    })),
    ...(seesMoney ? {} : { moneyHidden: true }),
  };
}

export const currencyOut = (c: InboxCurrency): InboxCurrency => ({ seen: c.seen, options: [...c.options] });
