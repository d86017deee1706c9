import { z } from "zod";
import { uuidSchema } from "./ids.js";

/** Kinds of file we keep: photos and receipt pages. Decided from the bytes, never from the header. */
export const FILE_MIMES = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "image/avif", "application/pdf"] as const;
export const MAX_FILE_BYTES = 15 * 1024 * 1024;
/** Kinds a thumbnail is made of; a PDF page has none (its records' thumbUrl is null). */
export const THUMBNAIL_MIMES: readonly (typeof FILE_MIMES)[number][] = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "image/avif"];
/** The longest side of a thumbnail, in pixels. */
export const THUMB_MAX_PX = 320;

/** Where a file is downloaded. The server's records and the app both build it here. */
export const fileUrl = (id: string): string => `/api/v1/files/${id}`;
/** Where a file's thumbnail is: every record that shows a photo small links it through this. */
export const thumbUrl = (id: string): string => `${fileUrl(id)}/thumb`;

export const fileSchema = z
  .object({ id: uuidSchema, locationId: uuidSchema, mime: z.enum(FILE_MIMES), size: z.number().int(), url: z.string(), thumbUrl: z.string().nullable() })
  .meta({ id: "File" });
export type FileRecord = z.infer<typeof fileSchema>;

export const fileCreateArgs = z
  .object({ id: uuidSchema, sha256: z.string().regex(/^[0-9a-f]{64}$/), size: z.number().int().min(1).max(MAX_FILE_BYTES), mime: z.enum(FILE_MIMES) })
  .strict();
export type FileCreateArgs = z.infer<typeof fileCreateArgs>;

export const fileUploadQuery = z.object({ locationId: uuidSchema, id: uuidSchema.optional() });
