import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
import { inboxClaimSchema } from "./codes.js";
import { fieldStatusSchema, inboxExtractionSchema } from "./extractions.js";
import { inboxReadingSchema } from "./meters.js";
import { inboxCurrencySchema, inboxReceiptSchema } from "./receipts.js";
import { thingSummarySchema } from "./things.js";

export const INBOX_KINDS = ["draft", "reading", "label_claim", "currency", "duplicate", "receipt", "sync_drop"] as const;
export const inboxKindSchema = z.enum(INBOX_KINDS);
export type InboxKind = z.infer<typeof inboxKindSchema>;
/** Ours: `open` until reviewed, then `accepted`, `dismissed` or `merged`. */
export const INBOX_STATUSES = ["open", "accepted", "dismissed", "merged"] as const;
export const inboxStatusSchema = z.enum(INBOX_STATUSES);
export type InboxStatus = z.infer<typeof inboxStatusSchema>;

const batchPlacePathEntry = z.object({ id: uuidSchema, name: z.string(), kind: z.enum(["place", "container"]), isUnplaced: z.boolean() });

/** `syncDrop` of a sync_drop item (sync/SPEC.md DR2): the whole op, why, and what it was about. */
export const syncDropSchema = z.object({
  op: z.unknown(),
  reason: z.string(),
  message: z.string().optional(),
  entity: z.object({ type: z.string(), id: uuidSchema, name: z.string() }).optional(),
  by: z.object({ displayName: z.string() }).optional(),
});
export type SyncDrop = z.infer<typeof syncDropSchema>;

/** Why two things look like one (issue "inbox-ai", duplicates). */
export const DUPLICATE_REASONS = ["serial", "brand_model_place"] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];
/** `duplicate` of a duplicate item: the other thing, as a summary. */
export const inboxDuplicateSchema = z.object({ other: thingSummarySchema, reason: z.enum(DUPLICATE_REASONS) });

/** Inbox item as the spec shows it; kind-specific parts appear with their kinds. */
export const inboxItemSchema = z
  .object({
    id: uuidSchema,
    kind: inboxKindSchema,
    locationId: uuidSchema,
    createdAt: timestampSchema,
    createdBy: z.object({ displayName: z.string() }),
    rowVersion: z.number(),
    status: inboxStatusSchema.optional(),
    batch: z.object({ id: uuidSchema, capturedAt: timestampSchema, placePath: z.array(batchPlacePathEntry), count: z.number() }),
    thing: thingSummarySchema
      .extend({
        brand: z
          .object({ id: uuidSchema, name: z.string(), model: z.string().nullable(), colour: z.string().nullable(), serial: z.string().nullable() })
          .optional(),
        photos: z.array(z.object({ fileId: uuidSchema, thumbUrl: z.string().nullable() })).optional(),
        fieldStatus: fieldStatusSchema.optional(),
      })
      .optional(),
    extraction: inboxExtractionSchema.optional(),
    syncDrop: syncDropSchema.optional(),
    reading: inboxReadingSchema.optional(),
    claim: inboxClaimSchema.optional(),
    duplicate: inboxDuplicateSchema.optional(),
    receipt: inboxReceiptSchema.optional(),
    currency: inboxCurrencySchema.optional(),
    undo: z.object({ eventId: uuidSchema, until: timestampSchema }).optional(),
  })
  .meta({ id: "InboxItem" });
export type InboxItem = z.infer<typeof inboxItemSchema>;

export const inboxQuerySchema = z.object({
  locationId: uuidSchema.optional(),
  kind: inboxKindSchema.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(2048).optional(),
});
