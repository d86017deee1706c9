/**
 * Short codes, labels and scanning (spec POST /scan/resolve, GET /codes/{code}, the thing
 * summary's `shortCode`). A code is six characters of an alphabet with nothing that reads two
 * ways: no 0/O, no 1/I/L, and no U. The server hands them out (unique per instance); this file
 * holds what both sides need to read a scan the same way, so a device resolves offline exactly
 * as the server does online.
 */
import { z } from "zod";
import { uuidSchema, UUID_PATTERN } from "./ids.js";

export const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ";
export const CODE_LENGTH = 6;
const CODE_PATTERN = new RegExp(`^[${CODE_ALPHABET}]{${CODE_LENGTH}}$`);

/**
 * A typed or scanned code in canonical form, or null if it cannot be one: case does not matter,
 * spaces and dashes are ignored ("k7m-4qx" is "K7M4QX").
 */
export function normalizeCode(text: string): string | null {
  const c = text.trim().toUpperCase().replace(/[\s-]/g, "");
  return CODE_PATTERN.test(c) ? c : null;
}

/** How a code is printed and read aloud: two groups of three. */
export const formatCode = (code: string): string => (code.length === CODE_LENGTH ? `${code.slice(0, 3)}-${code.slice(3)}` : code);

/** The path a label's QR code opens (`{origin}/c/{code}`): a phone's camera app lands in our app. */
export const codePath = (code: string): string => `/c/${code}`;

/** What a code names. */
export const CODE_KINDS = ["thing", "place"] as const;
export const codeKindSchema = z.enum(CODE_KINDS);
export type CodeKind = z.infer<typeof codeKindSchema>;

/** EAN-13, EAN-8, UPC-A (12) and UPC-E (8) carry a check digit; a run of digits that checks is a product barcode. */
export function isProductBarcode(digits: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13})$/.test(digits)) return false;
  const body = digits.slice(0, -1);
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return (10 - (sum % 10)) % 10 === Number(digits.at(-1));
}
const BARCODE_FORMATS = new Set(["ean_13", "ean_8", "upc_a", "upc_e"]);

/** A path segment decoded, or as it is when its escapes are broken ("%E0%A4" would throw). */
function decodeOr(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/** What a scanned or typed text is, before anything is looked up. */
export type ScanText =
  { type: "code"; code: string } | { type: "location"; locationId: string } | { type: "barcode"; code: string } | { type: "text"; text: string };

/**
 * Reads a scan: a link of ours (`.../c/{code}` or `.../l/{locationId}`, any origin, since the same
 * label works whatever address the app is opened at), a bare code, a product barcode (by its check
 * digit, or because the scanner said so), else plain text.
 */
export function classifyScan(text: string, format?: string): ScanText {
  const t = text.trim();
  const link = /^(?:https?:\/\/[^/\s]+)?\/(c|l)\/([^/?#\s]+)\/?(?:[?#].*)?$/i.exec(t);
  if (link) {
    const [, kind, part] = link;
    if (kind!.toLowerCase() === "c") {
      const code = normalizeCode(decodeOr(part!));
      if (code) return { type: "code", code };
    } else if (UUID_PATTERN.test(part!)) return { type: "location", locationId: part!.toLowerCase() };
  }
  const code = normalizeCode(t);
  if (code) return { type: "code", code };
  const digits = t.replace(/\s/g, "");
  if (/^\d+$/.test(digits) && (isProductBarcode(digits) || BARCODE_FORMATS.has((format ?? "").toLowerCase()))) return { type: "barcode", code: digits };
  return { type: "text", text: t };
}

export const scanResolveBody = z.object({ text: z.string().min(1).max(4096), format: z.string().max(40).optional() }).strict();
export type ScanResolveBody = z.infer<typeof scanResolveBody>;

/**
 * Outcomes of POST /scan/resolve (the spec's six shapes):
 * - `open`: one thing or place the person can see;
 * - `switch_location`: a link to a location the person can see;
 * - `claim`: a label printed for a location the person can write, not yet on anything;
 * - `candidates`: a barcode found on things in several places the person can see;
 * - `barcode`: a product barcode found on nothing (with whether a product lookup is set up);
 * - `text`: plain text that is no code of ours;
 * - `not_found`: a code that is unknown, or of a location the person cannot see (the same answer).
 */
export const SCAN_OUTCOMES = ["open", "switch_location", "claim", "candidates", "barcode", "text", "not_found"] as const;
export const scanTargetSchema = z.object({ kind: codeKindSchema, id: uuidSchema, locationId: uuidSchema });
export const scanCandidateSchema = z.object({ locationName: z.string(), locationId: uuidSchema, name: z.string(), kind: codeKindSchema, id: uuidSchema });
export const scanResultSchema = z
  .union([
    z.object({ outcome: z.literal("open"), target: scanTargetSchema }),
    z.object({ outcome: z.enum(["switch_location", "claim"]), locationId: uuidSchema, code: z.string().optional() }),
    z.object({ outcome: z.literal("candidates"), candidates: z.array(scanCandidateSchema) }),
    z.object({ outcome: z.literal("barcode"), barcode: z.object({ code: z.string(), lookupEnabled: z.boolean() }) }),
    z.object({ outcome: z.literal("text"), text: z.string() }),
    z.object({ outcome: z.literal("not_found") }),
  ])
  .meta({ id: "ScanResult" });
export type ScanResult = z.infer<typeof scanResultSchema>;

/** GET /codes/{code}. */
export const codeLookupSchema = z.object({ kind: codeKindSchema, id: uuidSchema }).meta({ id: "CodeLookup" });

/** Claim a printed label for a thing or a place (an op, so a label can be stuck on a box offline). */
export const codeClaimArgs = z.object({ code: z.string().min(1).max(64), kind: codeKindSchema, id: uuidSchema }).strict();
export type CodeClaimArgs = z.infer<typeof codeClaimArgs>;
export const codeClaimBody = codeClaimArgs.omit({ code: true });

/** The inbox item's `claim` member: a claim that met another claim of the same code. */
export const inboxClaimSchema = z.object({
  code: z.string(),
  claimedFor: z.object({ kind: codeKindSchema, id: uuidSchema, name: z.string() }),
  /** Who holds the code now. */
  heldBy: z.object({ kind: codeKindSchema, id: uuidSchema, name: z.string() }).optional(),
});
export type InboxClaim = z.infer<typeof inboxClaimSchema>;

export const LABEL_SHEET_MAX = 200;
/** 24 labels fill one A4 page (3 across, 8 down). */
export const labelSheetCreateBody = z.object({ count: z.number().int().min(1).max(LABEL_SHEET_MAX).default(24) }).strict();
export const labelSheetSchema = z
  .object({ id: uuidSchema, locationId: uuidSchema, size: z.number().int(), createdAt: z.string(), codes: z.array(z.string()), pdfUrl: z.string() })
  .meta({ id: "LabelSheet" });
export type LabelSheet = z.infer<typeof labelSheetSchema>;

/**
 * The answer of POST /codes/{code}/claim: `claimed` when the code is now the target's (or already
 * was); `inbox` when another thing or place holds it, and a `label_claim` item waits for a person.
 */
export const codeClaimResultSchema = z
  .object({ code: z.string(), kind: codeKindSchema, id: uuidSchema, outcome: z.enum(["claimed", "inbox"]), inboxItemId: uuidSchema.nullable() })
  .meta({ id: "CodeClaimResult" });
export type CodeClaimResult = z.infer<typeof codeClaimResultSchema>;
