/**
 * One nudge (nudges.ts finds them): a `reading` inbox item about a meter whose latest reading is
 * older than its nudgeDays, and the meter's nudged_for set to that reading's time, so it nudges
 * once. A system command (CommandDef.system) the nudge job runs as the system actor; nudged_for
 * is the server's bookkeeping, not a person's change, so it bumps no version
 * (CommandDef.bumpsVersion): a PATCH from someone who loaded the meter before is not refused for it.
 */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import type { InboxReading } from "../../../shared/meters.js";
import { eachOp } from "../../commands/runs.js";
import { defineCommand } from "../../commands/types.js";
import { inboxItems, meters } from "../../db/schema/index.js";
import { readingItem } from "./readings.js";

const nudgeArgs = z.object({
  /** The meter. */
  id: uuidSchema,
  thingId: uuidSchema,
  /** Whoever set the meter up: they asked for the reminder. */
  createdBy: uuidSchema.nullable(),
  /** The time of the reading the nudge is about. */
  takenAt: z.string().datetime(),
  /** When the job found it due (the item's capture time). */
  dueAt: z.string().datetime(),
  reading: z.record(z.string(), z.unknown()),
});
type NudgeArgs = z.infer<typeof nudgeArgs>;

export const meterNudge = defineCommand<NudgeArgs>({
  name: "meter.nudge",
  system: true,
  bumpsVersion: false,
  args: nudgeArgs,
  minRole: "member",
  run: (ctx, ops) =>
    eachOp(ctx, ops, (changes, { args, input }) => {
      const dueAt = new Date(args.dueAt);
      changes.insert(inboxItems, readingItem(dueAt, dueAt, input.locationId, args.thingId, args.createdBy, args.reading as unknown as InboxReading));
      changes.update(meters, { id: args.id, nudgedFor: new Date(args.takenAt) }, ["nudgedFor"]);
      changes.applied(args.id, 0, null);
    }),
});
