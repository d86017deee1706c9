/**
 * What a receipt's extraction asks the model for, and how its answer becomes a purchase: amounts
 * normalised to decimal strings, a date only if it is one, and every line checked. A line is
 * `flagged` when its quantity × unit price is not its total, and every line is when the lines do
 * not add up to the receipt's total (with or without its tax): a person should look before things
 * are made of them. Arithmetic is exact (BigInt in ten-thousandths); a cent either way is rounding.
 */
import { z } from "zod";
import type { PurchaseLine } from "../../db/schema/receipts.js";

const amount = () => z.string().nullable().describe("Decimal with a dot, no currency symbol or thousands separator (e.g. 1234.50)");

export const receiptAnswerSchema = z.object({
  vendor: z.string().nullable().describe("The shop or seller as printed"),
  date: z.string().nullable().describe("Date of purchase, YYYY-MM-DD"),
  currency: z.string().nullable().describe("The currency exactly as printed: a symbol ($, €, kr) or an ISO code (USD)"),
  total: amount().describe("The total paid"),
  tax: amount().describe("Tax included in or added to the total"),
  lines: z
    .array(
      z.object({
        description: z.string().describe("The item as printed"),
        quantity: z.number().nullable().describe("How many (1 when not printed)"),
        unitPrice: amount(),
        lineTotal: amount(),
      }),
    )
    .describe("Each purchased item, in printed order; no totals, tax or payment lines"),
});
export type ReceiptAnswer = z.infer<typeof receiptAnswerSchema>;

export const RECEIPT_SYSTEM =
  "You read photos of one shop receipt (one or more pages) for a home inventory. Give what is printed, or null " +
  "when it is not legible; never invent amounts. Keep descriptions as printed, in any language.";

export const receiptPrompt = (pages: number) => `${pages === 1 ? "One page follows" : `${pages} pages follow`}. Read the receipt.`;

const SCALE = 10_000n;

/** "1,234.5" / "12.30" / 12.3 as ten-thousandths, or null when it is not an amount. */
export function toUnits(v: unknown): bigint | null {
  const s = typeof v === "number" ? (Number.isFinite(v) ? v.toFixed(4) : "") : typeof v === "string" ? v.trim().replace(/,/g, "") : "";
  const m = /^(-?)(\d{1,13})(?:\.(\d{1,4})\d*)?$/.exec(s);
  if (!m) return null;
  const units = BigInt(m[2]!) * SCALE + BigInt((m[3] ?? "").padEnd(4, "0"));
  return m[1] ? -units : units;
}

/** Ten-thousandths as a decimal string with at least two decimals ("12.30", "0.125"). */
export function fromUnits(u: bigint): string {
  const neg = u < 0n;
  const abs = neg ? -u : u;
  const frac = (abs % SCALE)
    .toString()
    .padStart(4, "0")
    .replace(/0{1,2}$/, "");
  return `${neg ? "-" : ""}${abs / SCALE}.${frac.length < 2 ? frac.padEnd(2, "0") : frac}`;
}

/** A cent either way. */
const TOLERANCE = 100n;
const near = (a: bigint, b: bigint) => (a > b ? a - b : b - a) <= TOLERANCE;

export interface ReadReceipt {
  vendorSeen: string | null;
  purchasedOn: string | null;
  currencySeen: string | null;
  total: string | null;
  tax: string | null;
  lines: PurchaseLine[];
}

const text = (v: unknown, max: number) => (typeof v === "string" && v.trim() ? v.trim().slice(0, max) : null);

function isDate(s: string | null): s is string {
  if (!s || !/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(s);
}

export function readReceipt(answer: ReceiptAnswer): ReadReceipt {
  const total = toUnits(answer.total);
  const tax = toUnits(answer.tax);
  const lines = (answer.lines ?? []).slice(0, 500).flatMap((l) => {
    const description = text(l.description, 200);
    if (!description) return [];
    const q = typeof l.quantity === "number" && Number.isFinite(l.quantity) && l.quantity > 0 && l.quantity < 1e9 ? l.quantity : 1;
    const qUnits = toUnits(q)!;
    const unit = toUnits(l.unitPrice);
    const lineTotal = toUnits(l.lineTotal) ?? (unit !== null ? (qUnits * unit) / SCALE : null);
    const flagged = unit !== null && lineTotal !== null && !near((qUnits * unit) / SCALE, lineTotal);
    return [
      {
        description,
        quantity: String(Number(q.toFixed(3))),
        ...(unit !== null ? { unitPrice: fromUnits(unit) } : {}),
        ...(lineTotal !== null ? { lineTotal: fromUnits(lineTotal) } : {}),
        flagged,
        units: lineTotal,
      },
    ];
  });
  // The lines must make the total, with the tax added or already in it; unknown amounts cannot be checked.
  const sum = lines.every((l) => l.units !== null) ? lines.reduce((s, l) => s + l.units!, 0n) : null;
  const adds = sum === null || total === null || !lines.length || near(sum, total) || (tax !== null && near(sum + tax, total));
  return {
    vendorSeen: text(answer.vendor, 200),
    purchasedOn: isDate(text(answer.date, 10)) ? text(answer.date, 10) : null,
    currencySeen: text(answer.currency, 10),
    total: total !== null ? fromUnits(total) : null,
    tax: tax !== null ? fromUnits(tax) : null,
    lines: lines.map(({ units: _units, ...l }, index) => ({ index, ...l, flagged: l.flagged || !adds })),
  };
}
