import { z } from "zod";
import { uuidSchema } from "./ids.js";

/**
 * What a write answers when it has no richer body: the new rowVersion and the transaction id, so a
 * device can drop its optimistic copy once that txid arrives on a shape stream.
 */
export const writeResultSchema = z
  .object({ id: uuidSchema, rowVersion: z.number().int(), txid: z.string(), eventId: uuidSchema.nullable() })
  .meta({ id: "WriteResult" });
export type WriteResult = z.infer<typeof writeResultSchema>;

/** Body of a REST delete: the version it saw, optional (sent and stale is 409; the body may be left out). */
export const rowVersionBody = z.object({ rowVersion: z.number().int().min(1).optional() });
