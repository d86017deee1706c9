/**
 * A person joins a location: by an invite (invites.ts, the invite is the authority and the person
 * is not a member yet) or as a managed account an admin made (managed-accounts/service.ts). A
 * system command (CommandDef.system): it writes a membership no actor could write under RLS, run
 * only by those two after their own checks. A member already there keeps the higher of the two
 * roles; the history says who joined, as what.
 */
import { and, eq, isNull } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import { uuidSchema } from "../../../shared/ids.js";
import { roleAtLeast, roleSchema } from "../../../shared/roles.js";
import { eachOp } from "../../commands/runs.js";
import { defineCommand } from "../../commands/types.js";
import { memberships, users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";

const joinArgs = z.object({ userId: uuidSchema, role: roleSchema });
type JoinArgs = z.infer<typeof joinArgs>;

export const memberJoin = defineCommand<JoinArgs>({
  name: "member.join",
  system: true,
  args: joinArgs,
  minRole: "owner",
  target: (a) => a.userId,
  run: (ctx, ops) =>
    eachOp(ctx, ops, async (changes, { args, input }) => {
      const locationId = input.locationId;
      const [existing] = await ctx.tx
        .select()
        .from(memberships)
        .where(and(eq(memberships.locationId, locationId), eq(memberships.userId, args.userId), isNull(memberships.deletedAt)))
        .for("update");
      const [user] = await ctx.tx.select({ name: users.name }).from(users).where(eq(users.id, args.userId));
      if (!user) return changes.refuse(new NotFoundError("user"));
      if (existing && roleAtLeast(existing.role, args.role)) return changes.applied(args.userId, existing.rowVersion, null);
      const event = {
        locationId,
        entityType: "member",
        entityId: args.userId,
        entityName: user.name,
        action: "member.joined",
        before: { role: existing?.role ?? null },
        after: { role: args.role },
        summaryParams: { name: user.name, role: args.role },
        undoable: false,
      };
      if (existing) {
        const next = { ...existing, role: args.role, rowVersion: existing.rowVersion + 1, updatedAt: ctx.now };
        changes.changed(memberships, next, ["role", "rowVersion", "updatedAt"], event);
      } else {
        const row = { id: uuidv7(), locationId, userId: args.userId, role: args.role, rowVersion: 1, createdAt: ctx.now, updatedAt: ctx.now, deletedAt: null };
        changes.created(memberships, row, event);
      }
    }),
});
