/**
 * Box checks (spec "Box check", GET /things/{id}/box-checks): a person at an open box ticks what
 * is there against the list of what should be. The op carries the whole finding; the server turns
 * it into `lastSeenAt`, `uncertain`, moves and a record.
 */
import { z } from "zod";
import { decimalSchema, timestampSchema, uuidSchema } from "./ids.js";

/** Things one check may name, over all its lists (a crate of screws is one thing, not 2000). */
export const BOX_CHECK_THINGS_MAX = 2000;

export const boxCheckSplitSchema = z
  .object({
    thingId: uuidSchema,
    /** How many of the thing were found here (the rest is elsewhere). */
    quantity: decimalSchema.refine((q) => Number(q) > 0, "quantity must be above 0"),
  })
  .strict();
export type BoxCheckSplit = z.infer<typeof boxCheckSplitSchema>;

const ids = z.array(uuidSchema).max(BOX_CHECK_THINGS_MAX);
const findings = {
  at: z.iso.datetime({ offset: true }),
  seen: ids.default([]),
  notHere: ids.default([]),
  split: z.array(boxCheckSplitSchema).max(BOX_CHECK_THINGS_MAX).default([]),
  movedIn: ids.default([]),
};

/** Each thing in one list only, and not the box itself; the lists together within the maximum. */
const consistent = (a: { containerId?: string; seen: string[]; notHere: string[]; split: BoxCheckSplit[]; movedIn: string[] }, ctx: z.RefinementCtx) => {
  const all = [...a.seen, ...a.notHere, ...a.split.map((s) => s.thingId), ...a.movedIn].map((id) => id.toLowerCase());
  if (all.length > BOX_CHECK_THINGS_MAX) ctx.addIssue({ code: "custom", message: `a box check names at most ${BOX_CHECK_THINGS_MAX} things` });
  if (new Set(all).size !== all.length) ctx.addIssue({ code: "custom", message: "each thing may be in one list only, once" });
  if (a.containerId && all.includes(a.containerId.toLowerCase())) ctx.addIssue({ code: "custom", message: "a box does not check itself" });
};

export const boxCheckRecordArgs = z
  .object({ id: uuidSchema, containerId: uuidSchema, ...findings })
  .strict()
  .superRefine(consistent);
export type BoxCheckRecordArgs = z.infer<typeof boxCheckRecordArgs>;
/** REST POST /things/{id}/box-checks: the box is in the path; id and `at` default on the server. */
export const boxCheckCreateBody = z
  .object({ id: uuidSchema.optional(), ...findings, at: findings.at.optional() })
  .strict()
  .superRefine(consistent);

export const boxCheckSchema = z
  .object({
    id: uuidSchema,
    containerId: uuidSchema,
    at: timestampSchema,
    by: z.object({ displayName: z.string() }),
    seen: z.number().int(),
    notHere: z.number().int(),
    split: z.number().int(),
    movedIn: z.number().int(),
  })
  .meta({ id: "BoxCheck" });
export type BoxCheck = z.infer<typeof boxCheckSchema>;

/** Spec limits: limit 1 to 200 (default 20), cursor at most 2048 characters. */
export const boxCheckQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(20),
  cursor: z.string().max(2048).optional(),
});
