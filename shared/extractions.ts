/**
 * AI extraction as the API and the devices see it (spec "Extraction record", the inbox item's
 * `extraction` and `thing.fieldStatus`): the statuses, the record, what a field's value is known
 * from, and the two ops a person answers a suggestion with (offline too).
 */
import { z } from "zod";
import { aiCallRecordSchema } from "./ai.js";
import { timestampSchema, uuidSchema } from "./ids.js";

export const EXTRACTION_STATUSES = ["queued", "running", "succeeded", "failed", "paused_budget", "waiting_provider", "no_provider", "superseded"] as const;
export const extractionStatusSchema = z.enum(EXTRACTION_STATUSES);
export type ExtractionStatus = z.infer<typeof extractionStatusSchema>;
/** Statuses an extraction never leaves. */
export const FINAL_EXTRACTION_STATUSES: readonly ExtractionStatus[] = ["succeeded", "failed", "no_provider", "superseded"];

/** `thing`: a photo of the thing fills its fields; `receipt`: a receipt photo becomes a purchase. */
export const EXTRACTION_MODES = ["thing", "receipt"] as const;
export const extractionModeSchema = z.enum(EXTRACTION_MODES);
export type ExtractionMode = z.infer<typeof extractionModeSchema>;

/** One row of `GET /api/v1/things/{id}/extractions`. */
export const extractionRecordSchema = z
  .object({
    id: uuidSchema,
    attempt: z.number().int(),
    mode: extractionModeSchema,
    status: extractionStatusSchema,
    statusReason: z.string().nullable(),
    pausedUntil: timestampSchema.nullable(),
    createdAt: timestampSchema,
    model: z.string().nullable(),
    /** Field keys whose values came from this extraction (a suggestion accepted). */
    applied: z.array(z.string()),
    call: aiCallRecordSchema.nullable(),
  })
  .meta({ id: "ExtractionRecord" });
export type ExtractionRecord = z.infer<typeof extractionRecordSchema>;

/** The inbox item's `extraction`: the latest extraction of the item's thing. */
export const inboxExtractionSchema = z.object({
  id: uuidSchema,
  status: extractionStatusSchema,
  statusReason: z.string().optional(),
  pausedUntil: timestampSchema.optional(),
  call: aiCallRecordSchema.optional(),
});
export type InboxExtraction = z.infer<typeof inboxExtractionSchema>;

/**
 * A value the model read for a field. Values are JSON as the field stores them (text, a decimal
 * string, an ISO date, an option, a boolean ...). `attachmentId` is the photo it was read from.
 */
export const suggestionSchema = z.object({
  field: z.string(),
  value: z.unknown(),
  confidence: z.number().min(0).max(1),
  source: z.object({ extractionId: uuidSchema, attachmentId: uuidSchema }),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

/**
 * manual: the value (or its absence) is a person's own; extracted: the value came from a
 * suggestion; confirmed: a person said an extracted value is right.
 */
export const FIELD_STATES = ["manual", "extracted", "confirmed"] as const;
export const fieldStateSchema = z.enum(FIELD_STATES);
export type FieldState = z.infer<typeof fieldStateSchema>;

export const fieldStatusEntrySchema = z.object({
  state: fieldStateSchema,
  confidence: z.number().optional(),
  suggestions: z.array(suggestionSchema).optional(),
});
export type FieldStatusEntry = z.infer<typeof fieldStatusEntrySchema>;
/** By field key: `name`, `description`, `model`, `serial`, `colour`, `quantity`, or `fields.<key>`. */
export const fieldStatusSchema = z.record(z.string(), fieldStatusEntrySchema);
export type FieldStatus = z.infer<typeof fieldStatusSchema>;

/** The thing columns an extraction may suggest values for (custom fields as `fields.<key>`). */
export const EXTRACTABLE_COLUMNS = ["name", "description", "model", "serial", "colour", "quantity"] as const;
export const fieldKeySchema = z
  .string()
  .max(80)
  .regex(new RegExp(`^(${EXTRACTABLE_COLUMNS.join("|")}|fields\\.[a-z][a-z0-9_]{0,62})$`), "not a field an extraction fills");

/** `thing.suggestion.accept`: the value of one suggestion becomes the field's (an op like any other). */
export const suggestionAcceptArgs = z.object({ id: uuidSchema, field: fieldKeySchema, extractionId: uuidSchema }).strict();
export type SuggestionAcceptArgs = z.infer<typeof suggestionAcceptArgs>;
/** `thing.field.confirm`: a person says the extracted value of a field is right. */
export const fieldConfirmArgs = z.object({ id: uuidSchema, field: fieldKeySchema }).strict();
export type FieldConfirmArgs = z.infer<typeof fieldConfirmArgs>;

/** `POST /api/v1/things/{id}/extractions`: run an extraction again (all the thing's photos, or these). */
export const extractionStartBody = z.object({ mode: extractionModeSchema.default("thing"), fileIds: z.array(uuidSchema).min(1).max(10).optional() }).strict();
