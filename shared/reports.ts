/**
 * Inventory reports (spec `POST /api/v1/reports/inventory`, "Report job", "Limits"): a PDF of a
 * location's things grouped by place, built by a background job, for insurance, a buyer, a record.
 */
import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";

export const REPORT_STATUSES = ["queued", "running", "done", "failed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_LOCALES = ["en", "ar"] as const;
export type ReportLocale = (typeof REPORT_LOCALES)[number];
export const REPORT_DIGITS = ["western", "eastern"] as const;
export type ReportDigits = (typeof REPORT_DIGITS)[number];

/** Spec "Limits": inventory report filters. */
export const REPORT_MAX_IDS = 100;
export const REPORT_MAX_THING_IDS = 2000;
/** How long a finished report can be downloaded; the expiry job deletes the file after. */
export const REPORT_TTL_MS = 7 * 24 * 3600_000;

const ids = (max: number) => z.array(uuidSchema).max(max);

export const reportFilters = z
  .object({
    placeIds: ids(REPORT_MAX_IDS).optional(),
    typeIds: ids(REPORT_MAX_IDS).optional(),
    tagIds: ids(REPORT_MAX_IDS).optional(),
    thingIds: ids(REPORT_MAX_THING_IDS).optional(),
    includeEnded: z.boolean().optional(),
    includeTrashed: z.boolean().optional(),
  })
  .strict();
export type ReportFilters = z.infer<typeof reportFilters>;

export const reportInclude = z.object({ photos: z.boolean().optional(), qr: z.boolean().optional(), money: z.boolean().optional() }).strict();

export const reportRequestBody = z
  .object({
    scope: z.object({ locationId: uuidSchema }).strict(),
    filters: reportFilters.optional(),
    include: reportInclude.optional(),
    locale: z.enum(REPORT_LOCALES).optional(),
    digits: z.enum(REPORT_DIGITS).optional(),
    email: z.boolean().optional(),
  })
  .strict();
export type ReportRequest = z.infer<typeof reportRequestBody>;

/** What the job keeps of the request: every option resolved to its value. */
export interface ReportParams {
  filters: ReportFilters;
  include: { photos: boolean; qr: boolean; money: boolean };
  locale: ReportLocale;
  digits: ReportDigits;
  email: boolean;
}

/** Spec "Report job": the answer to the request. */
export const reportJobSchema = z.object({ id: uuidSchema, status: z.literal("queued"), expiresAt: timestampSchema });
export type ReportJob = z.infer<typeof reportJobSchema>;

/** GET /api/v1/reports/{id}: the job as it stands; `fileUrl` once the PDF is there. */
export const reportStateSchema = z.object({
  id: uuidSchema,
  locationId: uuidSchema,
  status: z.enum(REPORT_STATUSES),
  createdAt: timestampSchema,
  finishedAt: timestampSchema.optional(),
  expiresAt: timestampSchema,
  error: z.string().optional(),
  bytes: z.number().int().optional(),
  fileUrl: z.string().optional(),
});
export type ReportState = z.infer<typeof reportStateSchema>;

/** The download path of a report's PDF. */
export const reportFilePath = (id: string) => `/api/v1/reports/${id}/file`;

/** Western digits to Arabic-Indic ones (٠١٢٣٤٥٦٧٨٩), for reports and screens that ask for them. */
export function easternDigits(s: string): string {
  return s.replace(/[0-9]/g, (d) => String.fromCharCode(0x0660 + Number(d)));
}
