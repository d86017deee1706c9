import { z } from "zod";
import { uuidSchema } from "./ids.js";

/** Kinds of file we keep: photos and receipt pages. Decided from the bytes, never from the header. */
export const FILE_MIMES = ["image/jpeg", "image/png", "image/webp", "image/gif", "image/heic", "image/avif", "application/pdf"] as const;
export const MAX_FILE_BYTES = 15 * 1024 * 1024;

export const fileSchema = z
  .object({ id: uuidSchema, locationId: uuidSchema, mime: z.enum(FILE_MIMES), size: z.number().int(), url: z.string(), thumbUrl: z.string().nullable() })
  .meta({ id: "File" });
export type FileRecord = z.infer<typeof fileSchema>;

export const fileCreateArgs = z
  .object({ id: uuidSchema, sha256: z.string().regex(/^[0-9a-f]{64}$/), size: z.number().int().min(1).max(MAX_FILE_BYTES), mime: z.enum(FILE_MIMES) })
  .strict();
export type FileCreateArgs = z.infer<typeof fileCreateArgs>;

export const fileUploadQuery = z.object({ locationId: uuidSchema, id: uuidSchema.optional() });
