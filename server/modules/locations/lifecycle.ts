/**
 * The owner's acts on a whole location, as system commands (CommandDef.system): delete to the
 * trash, restore from it, transfer to another member. Their rows are outside what RLS lets an
 * actor write (a deleted location, the owner's own membership), so they run with the service's
 * authority, only from ownership.ts and trash.ts, after those checked the owner and the typed
 * confirmation; the history names the owner. Each leaves a history entry in words.
 */
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Role } from "../../../shared/roles.js";
import { uuidSchema } from "../../../shared/ids.js";
import { eachOp } from "../../commands/runs.js";
import { defineCommand } from "../../commands/types.js";
import { invites, locations, memberships, shareLinks, users } from "../../db/schema/index.js";
import { ForbiddenError, NotFoundError } from "../../errors/classes.js";

const idArgs = z.object({ id: uuidSchema });
type IdArgs = z.infer<typeof idArgs>;

/**
 * Into the trash (`toTrash`) or out of it: the location, locked, deleted or live as the act needs,
 * gets or loses its deletedAt and a new version and scope version (members' shapes start again).
 * Deleting also stops its pending invites and share links; restoring does not bring them back
 * (links that stopped working should not start again without someone making them anew).
 */
function trashCommand(name: "location.delete" | "location.restore", toTrash: boolean) {
  return defineCommand<IdArgs>({
    name,
    system: true,
    args: idArgs,
    minRole: "owner",
    run: (ctx, ops) =>
      eachOp(ctx, ops, async (changes, { args }) => {
        const [loc] = await ctx.tx
          .select()
          .from(locations)
          .where(and(eq(locations.id, args.id), toTrash ? isNull(locations.deletedAt) : isNotNull(locations.deletedAt)))
          .for("update");
        if (!loc) return changes.refuse(new NotFoundError("location"));
        const deletedAt = toTrash ? ctx.now : null;
        const next = { ...loc, deletedAt, updatedAt: ctx.now, rowVersion: loc.rowVersion + 1, scopeVersion: loc.scopeVersion + 1 };
        changes.changed(locations, next, ["deletedAt", "updatedAt", "rowVersion", "scopeVersion"], {
          locationId: loc.id,
          entityType: "location",
          entityId: loc.id,
          entityName: loc.name,
          action: toTrash ? "location.deleted" : "location.restored",
          before: { deletedAt: loc.deletedAt?.toISOString() ?? null },
          after: { deletedAt: deletedAt?.toISOString() ?? null },
          summaryParams: { name: loc.name },
          undoable: false,
        });
        if (!toTrash) return;
        await ctx.tx
          .update(invites)
          .set({ revokedAt: ctx.now })
          .where(and(eq(invites.locationId, loc.id), isNull(invites.revokedAt), isNull(invites.acceptedAt)));
        await ctx.tx
          .update(shareLinks)
          .set({ revokedAt: ctx.now })
          .where(and(eq(shareLinks.locationId, loc.id), isNull(shareLinks.revokedAt)));
      }),
  });
}

/** To the trash: gone from every member's lists and shapes. */
export const locationDelete = trashCommand("location.delete", true);
/** Out of the trash, as it was. */
export const locationRestore = trashCommand("location.restore", false);

const transferArgs = z.object({ id: uuidSchema, userId: uuidSchema });
type TransferArgs = z.infer<typeof transferArgs>;

/** The owner (the actor) becomes an admin and the member `userId` the owner. */
export const locationTransfer = defineCommand<TransferArgs>({
  name: "location.transfer",
  system: true,
  args: transferArgs,
  minRole: "owner",
  run: (ctx, ops) =>
    eachOp(ctx, ops, async (changes, { args }) => {
      const live = await ctx.tx
        .select({ m: memberships, name: users.name })
        .from(memberships)
        .innerJoin(users, eq(users.id, memberships.userId))
        .where(and(eq(memberships.locationId, args.id), isNull(memberships.deletedAt), sql`${memberships.userId} IN (${ctx.actor.userId}, ${args.userId})`))
        .for("update", { of: memberships });
      const from = live.find((r) => r.m.userId === ctx.actor.userId);
      const to = live.find((r) => r.m.userId === args.userId);
      const [loc] = await ctx.tx.select({ name: locations.name, rowVersion: locations.rowVersion }).from(locations).where(eq(locations.id, args.id));
      // Checked again under the lock: the owner may have changed since the caller's check.
      if (!from || from.m.role !== "owner") return changes.refuse(new ForbiddenError("Only the owner can transfer a location."));
      if (!to || !loc) return changes.refuse(new NotFoundError("member"));
      const role = (r: (typeof live)[number], next: Role) => {
        const row = { ...r.m, role: next, rowVersion: r.m.rowVersion + 1, updatedAt: ctx.now };
        changes.update(memberships, row, ["role", "rowVersion", "updatedAt"]);
        changes.record({
          locationId: args.id,
          entityType: "member",
          entityId: r.m.userId,
          entityName: r.name,
          action: "member.updated",
          before: { role: r.m.role },
          after: { role: next },
          summaryKey: "member.role_changed",
          summaryParams: { name: r.name, from: r.m.role, to: next },
          rowVersionAfter: row.rowVersion,
          undoable: false,
        });
      };
      role(from, "admin");
      role(to, "owner");
      const eventId = changes.record({
        locationId: args.id,
        entityType: "location",
        entityId: args.id,
        entityName: loc.name,
        action: "location.transferred",
        before: { owner: from.name },
        after: { owner: to.name },
        summaryKey: "location.transferred",
        summaryParams: { name: loc.name, from: from.name, to: to.name },
        rowVersionAfter: loc.rowVersion,
        undoable: false,
      });
      changes.applied(args.id, loc.rowVersion, eventId);
    }),
});
