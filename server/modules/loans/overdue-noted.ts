/**
 * The overdue job marks a loan whose lender it is about to tell (overdue.ts): a system command
 * (CommandDef.system) run as the system actor. overdue_notified_at is the server's bookkeeping,
 * not a person's change, so it bumps no version (CommandDef.bumpsVersion): a device's pending
 * return of the loan still applies.
 */
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { eachOp } from "../../commands/runs.js";
import { defineCommand } from "../../commands/types.js";
import { loans } from "../../db/schema/index.js";

const notedArgs = z.object({ id: uuidSchema, at: z.string().datetime() });
type NotedArgs = z.infer<typeof notedArgs>;

export const loanOverdueNoted = defineCommand<NotedArgs>({
  name: "loan.overdue_noted",
  system: true,
  bumpsVersion: false,
  args: notedArgs,
  minRole: "member",
  run: (ctx, ops) =>
    eachOp(ctx, ops, (changes, { args }) => {
      changes.update(loans, { id: args.id, overdueNotifiedAt: new Date(args.at) }, ["overdueNotifiedAt"]);
      changes.applied(args.id, 0, null);
    }),
});
