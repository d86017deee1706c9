import { z } from "zod";
import { uuidSchema } from "./ids.js";
import { currencyCodeSchema, receiptLineDecisionSchema } from "./receipts.js";

export const inboxActArgs = z.object({ id: uuidSchema }).strict();
export type InboxActArgs = z.infer<typeof inboxActArgs>;
/**
 * Accept, with what some kinds need decided: a receipt's lines (create, link or skip each; lines
 * not named are created), a currency item's pick (one of its options).
 */
export const inboxAcceptArgs = z
  .object({ id: uuidSchema, lines: z.array(receiptLineDecisionSchema).max(500).optional(), currency: currencyCodeSchema.optional() })
  .strict();
export type InboxAcceptArgs = z.infer<typeof inboxAcceptArgs>;
/** Merge a captured draft into an existing thing of the same location (spec POST /inbox/{id}/merge). */
export const inboxMergeArgs = z.object({ id: uuidSchema, into: uuidSchema }).strict();
export type InboxMergeArgs = z.infer<typeof inboxMergeArgs>;
