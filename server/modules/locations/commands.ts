/** Commands on locations: create (in the actor's own account) and update settings. */
import { eq, inArray } from "drizzle-orm";
import { locationCreateArgs, locationUpdateArgs, type LocationCreateArgs, type LocationUpdateArgs } from "../../../shared/locations.js";
import { roleAtLeast } from "../../../shared/roles.js";
import { bulkInsert, bulkUpdate } from "../../commands/bulk.js";
import { historyRow, pick, type HistoryRow } from "../../commands/history.js";
import { applied, defineCommand, rejected, type Verdict } from "../../commands/types.js";
import { accounts, historyEntries, locations } from "../../db/schema/index.js";
import { ConflictError, ForbiddenError, NotFoundError, VersionConflictError } from "../../errors/classes.js";
import { seedLocation } from "./seed.js";

export const locationCreate = defineCommand<LocationCreateArgs & { id: string }>({
  name: "location.create",
  args: locationCreateArgs as never,
  minRole: "owner",
  createsLocation: true,
  target: (a) => a.id,
  async run(ctx, ops) {
    const [account] = await ctx.tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.ownerUserId, ctx.actor.userId));
    const verdicts: Verdict[] = [];
    const history: HistoryRow[] = [];
    for (const { args, input } of ops) {
      if (!account) {
        verdicts.push(rejected(new NotFoundError("account")));
        continue;
      }
      const id = input.locationId;
      // A device-made id that is taken is a conflict, whoever's location has it; nothing is written.
      if (
        (await seedLocation(ctx.tx, { id, accountId: account.id, name: args.name, isPersonal: false, ownerUserId: ctx.actor.userId, now: ctx.now })) === null
      ) {
        verdicts.push(rejected(new ConflictError("A record with this id or code already exists.")));
        continue;
      }
      ctx.roles.set(id, "owner");
      const h = historyRow(ctx, {
        locationId: id,
        entityType: "location",
        entityId: id,
        entityName: args.name,
        action: "location.created",
        before: { name: null },
        after: { name: args.name },
        summaryKey: "location.created",
        summaryParams: { name: args.name },
        rowVersionAfter: 1,
        undoable: false,
      });
      history.push(h);
      verdicts.push(applied(ctx, id, 1, h.id));
    }
    await bulkInsert(ctx.tx, historyEntries, history);
    return verdicts;
  },
});

export const locationUpdate = defineCommand<LocationUpdateArgs>({
  name: "location.update",
  args: locationUpdateArgs,
  minRole: "admin",
  target: (a) => a.id,
  async run(ctx, ops) {
    const found = await ctx.tx
      .select()
      .from(locations)
      .where(
        inArray(
          locations.id,
          ops.map((o) => o.args.id),
        ),
      )
      .for("update");
    const byId = new Map(found.map((l) => [l.id, l]));
    const verdicts: Verdict[] = [];
    const updates: (typeof locations.$inferSelect)[] = [];
    const history: HistoryRow[] = [];
    for (const { args, input } of ops) {
      const target = byId.get(args.id);
      const role = ctx.roles.get(input.locationId);
      if (!target || target.id !== input.locationId || target.deletedAt) {
        verdicts.push(rejected(new NotFoundError("location")));
        continue;
      }
      // Only the owner requires two-factor (spec "Roles in a location").
      if (args.patch.requiresTwoFactor !== undefined && !(role && roleAtLeast(role, "owner"))) {
        verdicts.push(rejected(new ForbiddenError("Only the owner can require two-factor for a location.")));
        continue;
      }
      if (input.baseVersion !== undefined && input.baseVersion !== target.rowVersion) {
        verdicts.push(rejected(new VersionConflictError(target.rowVersion)));
        continue;
      }
      const keys = Object.keys(args.patch);
      const scopeChanged = (["requiresTwoFactor", "viewersSeeMoney"] as const).some((k) => k in args.patch && args.patch[k] !== target[k]);
      const next = {
        ...target,
        ...(args.patch as Partial<typeof target>),
        // Members' shapes hold other rows now: their handles must change (sync/SPEC.md SH4).
        scopeVersion: target.scopeVersion + (scopeChanged ? 1 : 0),
        rowVersion: target.rowVersion + 1,
        updatedAt: ctx.now,
      };
      updates.push(next);
      const h = historyRow(ctx, {
        locationId: target.id,
        entityType: "location",
        entityId: target.id,
        entityName: next.name,
        action: "location.updated",
        before: pick(target, keys),
        after: pick(next, keys),
        summaryKey: "location.updated",
        summaryParams: { name: next.name },
        rowVersionAfter: next.rowVersion,
        undoable: false,
      });
      history.push(h);
      verdicts.push(applied(ctx, target.id, next.rowVersion, h.id));
    }
    await bulkUpdate(ctx.tx, locations, updates);
    await bulkInsert(ctx.tx, historyEntries, history);
    return verdicts;
  },
});
