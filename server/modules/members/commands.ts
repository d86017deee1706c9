/**
 * Commands on memberships: change a role, remove a member (or leave). Admins manage members; only
 * the owner changes an admin; nobody changes the owner here (transfer is a separate, owner-only act).
 */
import { memberRemoveArgs, memberUpdateArgs, type MemberRemoveArgs, type MemberUpdateArgs } from "../../../shared/members.js";
import { roleAtLeast, type Role } from "../../../shared/roles.js";
import { eachOp } from "../../commands/runs.js";
import { SegmentChanges } from "../../commands/segment.js";
import { Targets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { memberships } from "../../db/schema/index.js";
import { ForbiddenError, ValidationError } from "../../errors/classes.js";

interface Member {
  id: string;
  locationId: string;
  userId: string;
  role: Role;
  rowVersion: number;
  /** The person's name, for history. */
  name: string;
}

const keyOf = (locationId: string, userId: string) => `${locationId} ${userId}`;

/**
 * The live memberships the ops name, locked, in one statement. Ops name a member by location and
 * person, not by the membership's id (someone who left and came back has a new row); only the
 * memberships are locked, not the people.
 */
async function lockMembers(ctx: CommandContext, ops: Op<{ userId: string }>[]): Promise<Targets<Member>> {
  const found = ops.length
    ? await rows<Member>(
        ctx.tx,
        sql`SELECT m.id, m.location_id AS "locationId", m.user_id AS "userId", m.role, m.row_version AS "rowVersion", u.name
            FROM unnest(${uuidArray(ops.map((o) => o.input.locationId))}, ${uuidArray(ops.map((o) => o.args.userId))}) AS k(location_id, user_id)
            JOIN memberships m ON m.location_id = k.location_id AND m.user_id = k.user_id AND m.deleted_at IS NULL
            JOIN users u ON u.id = m.user_id
            FOR UPDATE OF m`,
      )
    : [];
  return new Targets({ entity: "member" }, new Map(found.map((m) => [keyOf(m.locationId, m.userId), m])));
}

function mayManage(actorRole: Role | undefined, targetRole: Role, newRole?: Role): boolean {
  if (!actorRole || targetRole === "owner" || newRole === "owner") return false;
  if (targetRole === "admin" || newRole === "admin") return actorRole === "owner" || (actorRole === "admin" && targetRole !== "admin");
  return roleAtLeast(actorRole, "admin");
}

/** The membership in its new state, as the collector writes it. */
const written = (m: Member, changes: Partial<typeof memberships.$inferSelect> & { rowVersion: number }) => ({ id: m.id, ...changes });

export const memberUpdate = defineCommand<MemberUpdateArgs>({
  name: "member.update",
  args: memberUpdateArgs,
  minRole: "admin",
  target: (a) => a.userId,
  async run(ctx, ops) {
    const targets = await lockMembers(ctx, ops);
    return eachOp(ctx, ops, (changes, op) => {
      const { args, input } = op;
      const m = targets.get(keyOf(input.locationId, args.userId));
      const manage = (row: Member) =>
        mayManage(ctx.roles.get(input.locationId), row.role, args.role)
          ? null
          : new ForbiddenError(args.role === "owner" ? "Ownership is transferred by the owner, not by a role change." : "Your role cannot change this member.");
      // Roles are never merged field by field: any stale version is a conflict.
      const problem = targets.problem(op, m, { fields: "all", also: manage });
      if (changes.refused(problem, m)) return;
      const rowVersion = m.rowVersion + 1;
      changes.changed(memberships, written(m, { role: args.role, rowVersion, updatedAt: ctx.now }), ["role", "rowVersion", "updatedAt"], {
        locationId: input.locationId,
        entityType: "member",
        entityId: m.userId,
        entityName: m.name,
        action: "member.updated",
        before: { role: m.role },
        after: { role: args.role },
        summaryKey: "member.role_changed",
        summaryParams: { name: m.name, from: m.role, to: args.role },
        undoable: false,
      });
    });
  },
});

export const memberRemove = defineCommand<MemberRemoveArgs>({
  name: "member.remove",
  args: memberRemoveArgs,
  // Anyone may leave; removing someone else needs admin (checked below).
  minRole: "viewer",
  target: (a) => a.userId,
  async run(ctx, ops) {
    const self = (op: Op<MemberRemoveArgs>) => op.args.userId === ctx.actor.userId;
    const admin = (op: Op<MemberRemoveArgs>) => {
      const role = ctx.roles.get(op.input.locationId);
      return !!role && roleAtLeast(role, "admin");
    };
    // Checked before the lock: FOR UPDATE sees only rows RLS lets the actor update, so a member
    // removing someone would otherwise read "not found" for a person they can list.
    const allowed = (op: Op<MemberRemoveArgs>) => self(op) || admin(op);
    const targets = await lockMembers(ctx, ops.filter(allowed));
    const changes = new SegmentChanges(ctx);
    for (const op of ops) {
      const { args, input } = op;
      if (!allowed(op)) {
        changes.refuse(new ForbiddenError("Only an owner or admin can remove someone else."));
        continue;
      }
      const m = targets.get(keyOf(input.locationId, args.userId));
      const leaving = self(op);
      const removable = (row: Member) => {
        if (leaving && row.role === "owner") return new ValidationError("The owner cannot leave; transfer the location first.");
        if (!leaving && !mayManage(ctx.roles.get(input.locationId), row.role))
          return new ForbiddenError(row.role === "owner" ? "Nobody can remove the owner." : "Your role cannot remove this member.");
        return null;
      };
      const problem = targets.problem(op, m, { fields: "all", also: removable });
      if (problem || !m) {
        changes.refuse(problem!);
        continue;
      }
      const rowVersion = m.rowVersion + 1;
      // The collector writes history before updates: once the row is tombstoned, someone who left
      // no longer passes the history_entries insert policy (it needs a live owner, admin or member
      // role there). RLS lets admins update memberships and anyone tombstone their own (memberships_leave).
      changes.changed(memberships, written(m, { deletedAt: ctx.now, rowVersion, updatedAt: ctx.now }), ["deletedAt", "rowVersion", "updatedAt"], {
        locationId: input.locationId,
        entityType: "member",
        entityId: m.userId,
        entityName: m.name,
        action: leaving ? "member.left" : "member.removed",
        before: { role: m.role },
        after: { role: null },
        summaryParams: { name: m.name },
        undoable: false,
      });
    }
    return changes.write();
  },
});
