/**
 * Exports (spec "Export", POST /api/v1/exports and /exports/{id}/cancel): a zip of every record of
 * a location or of an owner account, built by a background job, downloadable for seven days.
 */
import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";

export const EXPORT_SCOPES = ["location", "account"] as const;
export const EXPORT_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled", "expired"] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];
/** How long a finished export's file stays downloadable. */
export const EXPORT_TTL_DAYS = 7;
/** Unfinished exports one person may have at once (each is a full pass over the data). */
export const EXPORT_MAX_ACTIVE = 3;
/** The largest CSV a thing import takes, and its row limit. */
export const CSV_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const CSV_IMPORT_MAX_ROWS = 5000;

export const exportOptionsSchema = z
  .object({
    ended: z.boolean().default(false),
    trashed: z.boolean().default(false),
    history: z.boolean().default(false),
    aiCalls: z.boolean().default(false),
    readable: z.boolean().default(true),
    pdf: z.boolean().default(false),
  })
  .strict();
export type ExportOptions = z.infer<typeof exportOptionsSchema>;

const exportCreateCommon = {
  options: exportOptionsSchema.default({ ended: false, trashed: false, history: false, aiCalls: false, readable: true, pdf: false }),
  locale: z.enum(["en", "ar"]).default("en"),
  digits: z.enum(["western", "eastern"]).default("western"),
  includesSecrets: z.boolean().default(false),
};

/** A location's export names the location; an account's names none (it is the asker's own account). */
export const exportCreateBody = z.discriminatedUnion("scope", [
  z.object({ scope: z.literal("location"), locationId: uuidSchema, ...exportCreateCommon }).strict(),
  z.object({ scope: z.literal("account"), ...exportCreateCommon }).strict(),
]);
export type ExportCreate = z.infer<typeof exportCreateBody>;

export const exportSchema = z
  .object({
    id: uuidSchema,
    scope: z.enum(EXPORT_SCOPES),
    locationId: uuidSchema.optional(),
    status: z.enum(EXPORT_STATUSES),
    progress: z.object({ done: z.number().int(), total: z.number().int() }),
    bytes: z.number().int().optional(),
    sha256: z.string().optional(),
    includesSecrets: z.boolean(),
    options: exportOptionsSchema.extend({ locale: z.string(), digits: z.string() }),
    createdAt: timestampSchema,
    finishedAt: timestampSchema.optional(),
    expiresAt: timestampSchema.optional(),
    error: z.string().optional(),
    fileUrl: z.string().optional(),
  })
  .meta({ id: "Export" });
export type ExportRecord = z.infer<typeof exportSchema>;

export const exportListSchema = z.object({ items: z.array(exportSchema) }).meta({ id: "ExportList" });

/** One row of a CSV import preview: its line in the file, and why it cannot be imported. */
export const csvImportResultSchema = z
  .object({
    dryRun: z.boolean(),
    rows: z.number().int(),
    ok: z.number().int(),
    created: z.number().int(),
    placesCreated: z.number().int(),
    errors: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  })
  .meta({ id: "CsvImportResult" });
export type CsvImportResult = z.infer<typeof csvImportResultSchema>;

/** The largest export zip a restore takes. */
export const ZIP_IMPORT_MAX_BYTES = 200 * 1024 * 1024;

export const zipImportResultSchema = z
  .object({
    places: z.number().int(),
    things: z.number().int(),
    photos: z.number().int(),
    records: z.record(z.string(), z.number().int()).meta({ description: "Rows restored per table" }),
    skipped: z.record(z.string(), z.number().int()).meta({
      description:
        "Rows left out per table: they hang on a row the export did not hold (a trashed or ended thing it left out), or are file records whose bytes are not in the zip",
    }),
    ids: z.record(z.string(), z.string()).meta({ description: "Old id -> new id of every restored row" }),
  })
  .meta({ id: "ZipImportResult" });
