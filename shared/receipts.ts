/**
 * Receipts (issue "inbox-ai"): a receipt photographed as such becomes a purchase, read by the AI
 * pipeline into vendor, date, currency, total, tax and lines, and reviewed as a `receipt` inbox
 * item whose accept creates or links the things of its lines. A currency printed as an ambiguous
 * symbol ("$", "¥", "kr") becomes a `currency` item with the options.
 */
import { z } from "zod";
import { uuidSchema } from "./ids.js";

/** Pages of one receipt (photos or PDFs uploaded first, as a capture's photos are). */
export const MAX_RECEIPT_PAGES = 10;

export const receiptCaptureArgs = z
  .object({
    /** The purchase's id (the receipt item has the same one). */
    id: uuidSchema,
    photoFileIds: z.array(uuidSchema).min(1).max(MAX_RECEIPT_PAGES),
    /** Where the things of its lines go when accepting creates them. */
    placeId: uuidSchema.optional(),
    batchId: uuidSchema.optional(),
  })
  .strict();
export type ReceiptCaptureArgs = z.infer<typeof receiptCaptureArgs>;

/** `reading` until the pipeline has read it (or given up), `read`, then as its item was decided. */
export const PURCHASE_STATUSES = ["reading", "read", "accepted", "dismissed"] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** ISO 4217 code, as a purchase stores it. */
export const currencyCodeSchema = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as USD");

export const receiptLineSchema = z.object({
  index: z.number().int(),
  description: z.string(),
  quantity: z.string(),
  unitPrice: z.string().optional(),
  /** The line does not add up: quantity × unit price is not its total, or the lines do not make the receipt's total. */
  flagged: z.boolean(),
});
export type ReceiptLine = z.infer<typeof receiptLineSchema>;

/** `receipt` of a receipt item (spec "Inbox item"); `moneyHidden` readers get no amounts. */
export const inboxReceiptSchema = z.object({
  purchaseId: uuidSchema,
  pages: z.array(z.object({ fileId: uuidSchema, thumbUrl: z.string().nullable() })),
  vendorSeen: z.string().optional(),
  purchasedOn: z.string().optional(),
  currency: z.string().optional(),
  total: z.string().optional(),
  tax: z.string().optional(),
  lines: z.array(receiptLineSchema),
  moneyHidden: z.boolean().optional(),
});
export type InboxReceipt = z.infer<typeof inboxReceiptSchema>;

/** `currency` of a currency item: what the receipt printed, and the codes it may mean (likeliest first). */
export const inboxCurrencySchema = z.object({ seen: z.string(), options: z.array(currencyCodeSchema) });
export type InboxCurrency = z.infer<typeof inboxCurrencySchema>;

/** What accepting a receipt item does with one line; lines not named are created. */
export const RECEIPT_LINE_ACTIONS = ["create", "link", "skip"] as const;
export const receiptLineDecisionSchema = z
  .object({ index: z.number().int().min(0).max(499), action: z.enum(RECEIPT_LINE_ACTIONS), thingId: uuidSchema.optional() })
  .strict()
  .refine((d) => (d.action === "link") === (d.thingId !== undefined), "thingId goes with action link, and only with it");
export type ReceiptLineDecision = z.infer<typeof receiptLineDecisionSchema>;

/** A receipt as its item's payload keeps it (the purchase mirrored; amounts as decimal strings). */
export interface ReceiptPayload {
  purchaseId: string;
  pages: { fileId: string }[];
  vendorSeen?: string;
  purchasedOn?: string;
  currency?: string;
  total?: string;
  tax?: string;
  lines: (ReceiptLine & { lineTotal?: string })[];
  /** Set by the sync shape where the reader may not see money (the amounts are then absent). */
  moneyHidden?: boolean;
}
