import { z } from "zod";

/** Paged lists return `items` and `next_cursor` (spec conventions 6). */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), next_cursor: z.string().nullable() });

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(2048).optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;
