import { z } from "zod";
import { uuidSchema } from "./ids.js";

export const inboxActArgs = z.object({ id: uuidSchema }).strict();
export type InboxActArgs = z.infer<typeof inboxActArgs>;
/** Merge a captured draft into an existing thing of the same location (spec POST /inbox/{id}/merge). */
export const inboxMergeArgs = z.object({ id: uuidSchema, into: uuidSchema }).strict();
export type InboxMergeArgs = z.infer<typeof inboxMergeArgs>;
