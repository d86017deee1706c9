/** First-use hints a person dismisses once for all their devices (`PUT /api/v1/me/hints/{key}`). */
import { z } from "zod";
import { timestampSchema } from "./ids.js";

/** Our choice: how many hint rows one person may keep (the app has a handful; this bounds a script). */
export const MAX_HINTS_PER_USER = 100;

/** A short slug: lower-case letters, digits, `.`, `_`, `-`; at most 64 characters. */
export const hintKeySchema = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, "a short slug: a-z, 0-9, '.', '_', '-' (at most 64)");

export const hintPutBody = z.object({ seen: z.boolean().optional(), dismissed: z.boolean().optional() }).strict();
export type HintPutBody = z.infer<typeof hintPutBody>;

export const hintSchema = z.object({ key: z.string(), seen: z.boolean(), dismissed: z.boolean(), updatedAt: timestampSchema }).meta({ id: "Hint" });
export type Hint = z.infer<typeof hintSchema>;
export const hintListSchema = z.object({ items: z.array(hintSchema), next_cursor: z.null() }).meta({ id: "HintList" });
