import { z } from "zod";
import { timestampSchema, uuidSchema } from "./ids.js";
import { aiCallWithTaskSchema } from "./ai.js";

export const diffEntrySchema = z.object({ class: z.string(), changed: z.boolean(), hidden: z.boolean() });

/** Who made a history entry (the `actor_type` column of history_entries). */
export const HISTORY_ACTOR_TYPES = ["user", "token", "mcp", "system"] as const;
export const historyActorTypeSchema = z.enum(HISTORY_ACTOR_TYPES);
export type HistoryActorType = z.infer<typeof historyActorTypeSchema>;

export const historyActorSchema = z.object({
  type: historyActorTypeSchema,
  id: uuidSchema.nullable(),
  displayName: z.string(),
});

export const historyEntitySchema = z.object({
  type: z.string(),
  id: uuidSchema,
  name: z.string().nullable(),
});

export const summaryLineSchema = z.object({
  key: z.string(),
  params: z.record(z.string(), z.string()),
  text: z.string(),
});

/** History entry exactly as the spec shows it. */
export const historyEntrySchema = z
  .object({
    id: uuidSchema,
    at: timestampSchema,
    action: z.string(),
    actor: historyActorSchema,
    entity: historyEntitySchema,
    diff: z.record(z.string(), diffEntrySchema),
    undoable_until: timestampSchema.nullable(),
    summary: z.string(),
    summaryKey: z.string(),
    summaryParams: z.record(z.string(), z.string()),
    summaryLines: z.array(summaryLineSchema).optional(),
    movedInFromElsewhere: z.boolean().optional(),
    mergedFrom: z.object({ id: uuidSchema, name: z.string().nullable() }).optional(),
    aiCall: aiCallWithTaskSchema.optional(),
  })
  .meta({ id: "HistoryEntry" });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const historyQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(2048).optional(),
  kind: z.enum(["created", "updated", "moved", "deleted", "restored"]).optional(),
});

export const undoArgs = z.object({ eventId: uuidSchema }).strict();
export type UndoArgs = z.infer<typeof undoArgs>;
