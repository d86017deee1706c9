/**
 * The push envelope, limits and per-op results (sync/SPEC.md PU1-PU7). Shared by server and client.
 */
import { z } from "zod";
import { uuidSchema } from "../shared/ids.js";
import { ILL_FORMED_TEXT_MESSAGE, isWellFormedText, nestingDepth } from "../shared/text.js";
import { OP_NAMES } from "./ops.js";

/** Current protocol; a client below MIN_PROTOCOL is refused with client_too_old (PU2). */
export const PROTOCOL = 1;
export const MIN_PROTOCOL = 1;
/** PU3 */
export const MAX_OPS = 1000;
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** PU3: one op's args nest at most this deep (real ops need 4) and are at most this many characters as JSON. */
export const MAX_ARGS_DEPTH = 16;
export const MAX_ARGS_JSON_LENGTH = 64 * 1024;

const envelopeText = (max: number) => z.string().min(1).max(max).refine(isWellFormedText, ILL_FORMED_TEXT_MESSAGE);

export const pushOpSchema = z
  .object({
    id: uuidSchema,
    name: envelopeText(64),
    locationId: uuidSchema,
    args: z.unknown(),
    baseVersion: z.number().int().min(1).optional(),
    at: z.iso.datetime({ offset: true }),
  })
  .superRefine((op, ctx) => {
    // The envelope refuses args no op can have, naming the op, so the device sets that one aside (PU3).
    if (nestingDepth(op.args, MAX_ARGS_DEPTH) > MAX_ARGS_DEPTH)
      ctx.addIssue({ code: "custom", path: ["args"], message: `op ${op.id} (${op.name}): args nest deeper than ${MAX_ARGS_DEPTH} levels` });
    else if (JSON.stringify(op.args ?? null).length > MAX_ARGS_JSON_LENGTH)
      ctx.addIssue({ code: "custom", path: ["args"], message: `op ${op.id} (${op.name}): args are longer than ${MAX_ARGS_JSON_LENGTH} characters of JSON` });
  });
export type PushOp = z.infer<typeof pushOpSchema>;

export const pushRequestSchema = z
  .object({
    clientId: envelopeText(100),
    protocol: z.number().int(),
    ops: z.array(pushOpSchema),
  })
  .meta({ id: "PushRequest" });
export type PushRequest = z.infer<typeof pushRequestSchema>;

export const DROP_REASONS = ["invalid", "forbidden", "not_visible", "not_found", "deleted", "stale", "conflict", "depends_on_dropped", "unknown_op"] as const;
export const dropReasonSchema = z.enum(DROP_REASONS);
export type DropReason = z.infer<typeof dropReasonSchema>;

const applied = z.object({ id: uuidSchema, status: z.literal("applied"), rowVersion: z.number().int(), txid: z.string() });
const dropped = z.object({ id: uuidSchema, status: z.literal("dropped"), reason: dropReasonSchema, inboxItemId: uuidSchema });
/** A replay: the stored verdict, with `status` replaced and the original in `was`. */
const duplicate = z.object({
  id: uuidSchema,
  status: z.literal("duplicate"),
  was: z.enum(["applied", "dropped"]),
  rowVersion: z.number().int().optional(),
  txid: z.string().optional(),
  reason: dropReasonSchema.optional(),
  inboxItemId: uuidSchema.optional(),
});
export const opResultSchema = z.discriminatedUnion("status", [applied, dropped, duplicate]);
export type OpResult = z.infer<typeof opResultSchema>;

export const pushResponseSchema = z.object({ results: z.array(opResultSchema) }).meta({ id: "PushResponse" });
export type PushResponse = z.infer<typeof pushResponseSchema>;

export { OP_NAMES };
