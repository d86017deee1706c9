/**
 * Meters on things and their readings (spec "Meter and proof", PATCH /meters/{id}, the inbox's
 * `reading` member). Values are decimal strings end to end: the database keeps numeric(18,3) and
 * every sum, difference and rate is worked in decimals, never in floating point.
 */
import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";

/** The spec leaves meter kinds open; these are ours. */
export const METER_KINDS = ["electricity", "water", "gas", "heat", "oil", "odometer", "hours", "other"] as const;
export const meterKindSchema = z.enum(METER_KINDS);
export type MeterKind = z.infer<typeof meterKindSchema>;

/** `review`: implausible, kept, waiting in the inbox; `rejected`: a reviewer said it is wrong (it counts for nothing). */
export const READING_STATUSES = ["ok", "review", "rejected"] as const;
export type ReadingStatus = (typeof READING_STATUSES)[number];
/** Why a reading went to the inbox: lower than the one before it, or rising faster than maxPerDay. */
export const READING_REASONS = ["backwards", "too_fast"] as const;
export type ReadingReason = (typeof READING_REASONS)[number];
/** The reason of a nudge item: the meter's last reading is older than its nudgeDays. */
export const NUDGE_REASON = "overdue";

/** A counter reading: at most 15 digits before the point and 3 after, never negative. */
export const readingValueSchema = z.string().regex(/^\d{1,15}(\.\d{1,3})?$/, "must be a decimal number (at most 15 digits, 3 decimals), not negative");
/** An offset may be negative (a counter replaced by one that starts higher). */
export const offsetSchema = z.string().regex(/^-?\d{1,15}(\.\d{1,3})?$/, "must be a decimal number with at most 3 decimals");

export const METER_LABEL_MAX = 80;
export const MAX_PER_DAY_MAX = 99999999999.999;
export const NUDGE_DAYS_MIN = 7;
export const NUDGE_DAYS_MAX = 365;

const label = z.string().trim().min(1).max(METER_LABEL_MAX);
const unit = z.string().trim().min(1).max(12);
/** Spec: above 0, at most 99999999999.999, in steps of 0.001. */
const maxPerDay = z
  .number()
  .gt(0)
  .max(MAX_PER_DAY_MAX)
  .refine((n) => Math.abs(Math.round(n * 1000) - n * 1000) < 1e-6, "maxPerDay must be a multiple of 0.001");
const nudgeDays = z.number().int().min(NUDGE_DAYS_MIN).max(NUDGE_DAYS_MAX);

const meterCreateShape = z
  .object({
    id: uuidSchema,
    thingId: uuidSchema,
    kind: meterKindSchema,
    unit,
    label: label.nullable().optional(),
    offset: offsetSchema.optional(),
    maxPerDay: maxPerDay.nullable().optional(),
    nudgeDays: nudgeDays.nullable().optional(),
  })
  .strict();
export const meterCreateArgs = meterCreateShape;
export type MeterCreateArgs = z.infer<typeof meterCreateArgs>;
/** REST POST /things/{id}/meters: the thing is in the path; the server makes the id when the client does not. */
export const meterCreateBody = meterCreateShape.omit({ thingId: true }).partial({ id: true });

/** What PATCH may change: the spec's three fields, plus the offset (a replaced counter) and the unit. */
const meterPatchShape = z
  .object({
    label: label.nullable(),
    maxPerDay: maxPerDay.nullable(),
    nudgeDays: nudgeDays.nullable(),
    offset: offsetSchema,
    unit,
    kind: meterKindSchema,
  })
  .partial()
  .strict();
export const meterPatchSchema = meterPatchShape.refine((p) => Object.keys(p).length > 0, "patch must change at least one field");
export const meterPatchBody = meterPatchShape
  .extend({ rowVersion: z.number().int().min(1).optional() })
  .refine((p) => Object.keys(p).some((k) => k !== "rowVersion"), "patch must change at least one field");
export const meterUpdateArgs = z.object({ id: uuidSchema, patch: meterPatchSchema }).strict();
export type MeterUpdateArgs = z.infer<typeof meterUpdateArgs>;
export const meterDeleteArgs = z.object({ id: uuidSchema }).strict();
export type MeterDeleteArgs = z.infer<typeof meterDeleteArgs>;

/** A date-time with Z or an offset, as devices send `takenAt`. */
const takenAt = z.iso.datetime({ offset: true });

export const readingCaptureArgs = z.object({ id: uuidSchema, meterId: uuidSchema, value: readingValueSchema, takenAt, fileId: uuidSchema.optional() }).strict();
export type ReadingCaptureArgs = z.infer<typeof readingCaptureArgs>;
/** REST POST /meters/{id}/readings: `takenAt` defaults to the server's now. */
export const readingCreateBody = readingCaptureArgs.omit({ meterId: true }).partial({ id: true, takenAt: true });

export const ESTIMATE_ADVICE = ["none", "fresh", "stale", "unknown"] as const;
export const estimateSchema = z.object({
  perDay: z.string().nullable(),
  basisDays: z.number().nullable(),
  ageDays: z.number().nullable(),
  advice: z.enum(ESTIMATE_ADVICE),
});
export type Estimate = z.infer<typeof estimateSchema>;

export const meterSchema = z
  .object({
    id: uuidSchema,
    thingId: uuidSchema,
    locationId: uuidSchema,
    kind: meterKindSchema,
    unit: z.string(),
    label: z.string().nullable(),
    /** Absent while the meter has no reading that counts. */
    latest: z.object({ value: z.string(), takenAt: timestampSchema }).optional(),
    needsReview: z.number().int(),
    maxPerDay: z.number().nullable(),
    offset: z.string(),
    rowVersion: z.number().int(),
    nudgeDays: z.number().int().nullable(),
    estimate: estimateSchema,
  })
  .meta({ id: "Meter" });
export type Meter = z.infer<typeof meterSchema>;

export const readingSchema = z
  .object({
    id: uuidSchema,
    meterId: uuidSchema,
    value: z.string(),
    offset: z.string(),
    takenAt: timestampSchema,
    fileId: uuidSchema.nullable(),
    thumbUrl: z.string().nullable(),
    status: z.enum(READING_STATUSES),
    reason: z.enum(READING_REASONS).nullable(),
    by: z.object({ displayName: z.string() }),
    rowVersion: z.number().int(),
  })
  .meta({ id: "Reading" });
export type Reading = z.infer<typeof readingSchema>;

export const proofSchema = z
  .object({
    readingId: uuidSchema,
    value: z.string(),
    takenAt: timestampSchema,
    fileId: uuidSchema,
    thumbUrl: z.string(),
    by: z.object({ displayName: z.string() }),
  })
  .meta({ id: "Proof" });
export type Proof = z.infer<typeof proofSchema>;

const neighbour = z.object({ value: z.string(), takenAt: timestampSchema });
/** The inbox item's `reading` member (spec), plus the reading's id for the reviewer's links. */
export const inboxReadingSchema = z.object({
  meter: z.object({ id: uuidSchema, label: z.string().nullable(), unit: z.string() }),
  readingId: uuidSchema.optional(),
  value: z.string(),
  takenAt: timestampSchema,
  reason: z.string(),
  neighbours: z.object({ before: neighbour.optional(), after: neighbour.optional() }),
  proofThumbUrl: z.string().nullable(),
});
export type InboxReading = z.infer<typeof inboxReadingSchema>;

/** GET /meters/{id}/readings and /proofs: newest takenAt first (spec limits: 1-200, default 20; cursor at most 2048). */
export const meterPageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
  cursor: z.string().max(2048).optional(),
});
