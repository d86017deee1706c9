/**
 * Commands on memberships: change a role, remove a member (or leave). Admins manage members; only
 * the owner changes an admin; nobody changes the owner here (transfer is a separate, owner-only act).
 */
import { and, eq, isNull } from "drizzle-orm";
import { memberRemoveArgs, memberUpdateArgs, type MemberRemoveArgs, type MemberUpdateArgs } from "../../../shared/members.js";
import { roleAtLeast, type Role } from "../../../shared/roles.js";
import { bulkInsert } from "../../commands/bulk.js";
import { historyRow } from "../../commands/history.js";
import { applied, defineCommand, rejected, type CommandContext, type Verdict } from "../../commands/types.js";
import { historyEntries, memberships, users } from "../../db/schema/index.js";
import { ForbiddenError, NotFoundError, ValidationError, VersionConflictError } from "../../errors/classes.js";

async function loadMember(ctx: CommandContext, locationId: string, userId: string) {
  const [m] = await ctx.tx
    .select({ m: memberships, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.locationId, locationId), eq(memberships.userId, userId), isNull(memberships.deletedAt)))
    .for("update", { of: memberships });
  return m;
}

function mayManage(actorRole: Role | undefined, targetRole: Role, newRole?: Role): boolean {
  if (!actorRole || targetRole === "owner" || newRole === "owner") return false;
  if (targetRole === "admin" || newRole === "admin") return actorRole === "owner" || (actorRole === "admin" && targetRole !== "admin");
  return roleAtLeast(actorRole, "admin");
}

export const memberUpdate = defineCommand<MemberUpdateArgs>({
  name: "member.update",
  args: memberUpdateArgs,
  minRole: "admin",
  target: (a) => a.userId,
  async run(ctx, ops) {
    const verdicts: Verdict[] = [];
    for (const { args, input } of ops) {
      const found = await loadMember(ctx, input.locationId, args.userId);
      if (!found) {
        verdicts.push(rejected(new NotFoundError("member")));
        continue;
      }
      const { m, name } = found;
      if (!mayManage(ctx.roles.get(input.locationId), m.role, args.role)) {
        verdicts.push(
          rejected(
            new ForbiddenError(args.role === "owner" ? "Ownership is transferred by the owner, not by a role change." : "Your role cannot change this member."),
          ),
        );
        continue;
      }
      if (input.baseVersion !== undefined && input.baseVersion !== m.rowVersion) {
        verdicts.push(rejected(new VersionConflictError(m.rowVersion)));
        continue;
      }
      const rowVersion = m.rowVersion + 1;
      await ctx.tx.update(memberships).set({ role: args.role, rowVersion, updatedAt: ctx.now }).where(eq(memberships.id, m.id));
      const h = historyRow(ctx, {
        locationId: input.locationId,
        entityType: "member",
        entityId: m.userId,
        entityName: name,
        action: "member.updated",
        before: { role: m.role },
        after: { role: args.role },
        summaryKey: "member.role_changed",
        summaryParams: { name, from: m.role, to: args.role },
        rowVersionAfter: rowVersion,
        undoable: false,
      });
      await bulkInsert(ctx.tx, historyEntries, [h]);
      verdicts.push(applied(ctx, m.userId, rowVersion, h.id));
    }
    return verdicts;
  },
});

export const memberRemove = defineCommand<MemberRemoveArgs>({
  name: "member.remove",
  args: memberRemoveArgs,
  // Anyone may leave; removing someone else needs admin (checked below).
  minRole: "viewer",
  target: (a) => a.userId,
  async run(ctx, ops) {
    const verdicts: Verdict[] = [];
    for (const { args, input } of ops) {
      const self = args.userId === ctx.actor.userId;
      const actorRole = ctx.roles.get(input.locationId);
      // Before the lock: FOR UPDATE sees only rows RLS lets the actor update, so a member removing
      // someone would otherwise read "not found" for a person they can list.
      if (!self && !(actorRole && roleAtLeast(actorRole, "admin"))) {
        verdicts.push(rejected(new ForbiddenError("Only an owner or admin can remove someone else.")));
        continue;
      }
      const found = await loadMember(ctx, input.locationId, args.userId);
      if (!found) {
        verdicts.push(rejected(new NotFoundError("member")));
        continue;
      }
      const { m, name } = found;
      if (self && m.role === "owner") {
        verdicts.push(rejected(new ValidationError("The owner cannot leave; transfer the location first.")));
        continue;
      }
      if (!self && !mayManage(actorRole, m.role)) {
        verdicts.push(rejected(new ForbiddenError(m.role === "owner" ? "Nobody can remove the owner." : "Your role cannot remove this member.")));
        continue;
      }
      const rowVersion = m.rowVersion + 1;
      const h = historyRow(ctx, {
        locationId: input.locationId,
        entityType: "member",
        entityId: m.userId,
        entityName: name,
        action: self ? "member.left" : "member.removed",
        before: { role: m.role },
        after: { role: null },
        summaryKey: self ? "member.left" : "member.removed",
        summaryParams: { name },
        rowVersionAfter: rowVersion,
        undoable: false,
      });
      // History first: once the row is tombstoned, someone who left no longer passes the
      // history_entries insert policy (it needs a live owner, admin or member role there).
      await bulkInsert(ctx.tx, historyEntries, [h]);
      // RLS lets admins update memberships and anyone tombstone their own (memberships_leave).
      await ctx.tx.update(memberships).set({ deletedAt: ctx.now, rowVersion, updatedAt: ctx.now }).where(eq(memberships.id, m.id));
      verdicts.push(applied(ctx, m.userId, rowVersion, h.id));
    }
    return verdicts;
  },
});
