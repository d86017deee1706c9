/**
 * A job raises an inbox item (a receipt's question which currency a shared symbol meant): a system
 * command (CommandDef.system), run by the job as the system actor, writing the item through the
 * core's one inbox-item writer (server/commands/inbox-items.ts). Commands a person runs add their
 * items to their own segment instead.
 */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { inboxKindSchema } from "../../../shared/inbox.js";
import { newInboxItem } from "../../commands/inbox-items.js";
import { eachOp } from "../../commands/runs.js";
import { defineCommand } from "../../commands/types.js";
import { inboxItems } from "../../db/schema/index.js";

const raiseArgs = z.object({
  id: uuidSchema,
  kind: inboxKindSchema,
  thingId: uuidSchema.nullable(),
  /** Beside another item in the inbox (its batch and capture time), else alone and now. */
  batchId: uuidSchema.optional(),
  capturedAt: z.string().datetime().optional(),
  /** Shown as made by this person (who asked for what the job did). */
  createdBy: uuidSchema.nullable(),
  payload: z.record(z.string(), z.unknown()),
});
type RaiseArgs = z.infer<typeof raiseArgs>;

export const inboxRaise = defineCommand<RaiseArgs>({
  name: "inbox.raise",
  system: true,
  args: raiseArgs,
  minRole: "member",
  creates: true,
  run: (ctx, ops) =>
    eachOp(ctx, ops, (changes, { args, input }) => {
      const { capturedAt, batchId, ...item } = args;
      changes.insert(
        inboxItems,
        newInboxItem(
          { ...item, locationId: input.locationId, ...(batchId ? { batchId } : {}), ...(capturedAt ? { capturedAt: new Date(capturedAt) } : {}) },
          ctx.now,
        ),
      );
      changes.applied(args.id, 1, null);
    }),
});
