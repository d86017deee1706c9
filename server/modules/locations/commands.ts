/** Commands on locations: create (in the actor's own account) and update settings. */
import { eq } from "drizzle-orm";
import { locationCreateArgs, locationUpdateArgs, type LocationCreateArgs, type LocationUpdateArgs } from "../../../shared/locations.js";
import { ROLES, roleAtLeast, type Role } from "../../../shared/roles.js";
import { pick } from "../../commands/history.js";
import { eachOp } from "../../commands/runs.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand } from "../../commands/types.js";
import { accounts, locations } from "../../db/schema/index.js";
import { ConflictError, ForbiddenError, NotFoundError } from "../../errors/classes.js";
import { seedLocation } from "./seed.js";

type LocationRow = typeof locations.$inferSelect;

export const locationCreate = defineCommand<LocationCreateArgs & { id: string }>({
  name: "location.create",
  args: locationCreateArgs as never,
  minRole: "owner",
  createsLocation: true,
  async run(ctx, ops) {
    const [account] = await ctx.tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.ownerUserId, ctx.actor.userId));
    return eachOp(ctx, ops, async (changes, { args, input }) => {
      if (!account) return changes.refuse(new NotFoundError("account"));
      const id = input.locationId;
      // A device-made id that is taken is a conflict, whoever's location has it; nothing is written.
      if (
        (await seedLocation(ctx.tx, { id, accountId: account.id, name: args.name, isPersonal: false, ownerUserId: ctx.actor.userId, now: ctx.now })) === null
      ) {
        changes.refuse(new ConflictError("A record with this id or code already exists."));
        return;
      }
      ctx.roles.set(id, "owner");
      const eventId = changes.record({
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
      changes.applied(id, 1, eventId);
    });
  },
});

/** The columns location.update reads: the check's, the history's, and those a patch may change. */
const LOCATION_KEYS = ["name", "requiresTwoFactor", "viewersSeeMoney", "secretRevealRoles", "scopeVersion", "rowVersion", "deletedAt"] as const;

/** A reveal policy as stored: the owner always in it, each role once, in rank order. */
const revealRoles = (given: readonly Role[]): Role[] => ROLES.filter((r) => r === "owner" || given.includes(r));

export const locationUpdate = defineCommand<LocationUpdateArgs>({
  name: "location.update",
  args: locationUpdateArgs,
  minRole: "admin",
  async run(ctx, ops) {
    // A location is its own location, and its tombstone was never shown: it is just not found.
    const targets = await lockTargets(ctx, locations, { entity: "location", locationOf: (l) => l.id, tombstone: "not-found" }, ops, LOCATION_KEYS);
    return eachOp(ctx, ops, (changes, op) => {
      const { args, input } = op;
      const target = targets.get(args.id);
      const role = ctx.roles.get(input.locationId);
      // Only the owner requires two-factor or sets secret-field policies (spec "Roles in a location").
      const isOwner = role && roleAtLeast(role, "owner");
      const ownerOnly = () =>
        args.patch.requiresTwoFactor !== undefined && !isOwner
          ? new ForbiddenError("Only the owner can require two-factor for a location.")
          : args.patch.secretRevealRoles !== undefined && !isOwner
            ? new ForbiddenError("Only the owner decides who may reveal secret values.")
            : null;
      // Location settings are never merged field by field: any stale version is a conflict.
      const problem = targets.problem(op, target, { fields: "all", also: ownerOnly });
      if (changes.refused(problem, target)) return;
      const keys = Object.keys(args.patch) as (keyof LocationRow)[];
      const scopeChanged = (["requiresTwoFactor", "viewersSeeMoney"] as const).some((k) => k in args.patch && args.patch[k] !== target[k]);
      const { secretRevealRoles, ...rest } = args.patch;
      const next = {
        ...target,
        ...(rest as Partial<LocationRow>),
        ...(secretRevealRoles ? { secretRevealRoles: revealRoles(secretRevealRoles) } : {}),
        // Members' shapes hold other rows now: their handles must change (sync/SPEC.md SH4).
        scopeVersion: target.scopeVersion + (scopeChanged ? 1 : 0),
        rowVersion: target.rowVersion + 1,
        updatedAt: ctx.now,
      };
      targets.set(next);
      changes.changed(locations, next, [...keys, "scopeVersion", "rowVersion", "updatedAt"], {
        locationId: target.id,
        entityType: "location",
        entityId: target.id,
        entityName: next.name,
        action: "location.updated",
        before: pick(target, keys),
        after: pick(next, keys),
        summaryParams: { name: next.name },
        undoable: false,
      });
    });
  },
});
