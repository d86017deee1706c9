/** Commands on places: create, update (rename, re-parent, change kind) and delete (an empty place). */
import { and, inArray, isNull } from "drizzle-orm";
import { placeCreateArgs, placeDeleteArgs, placeUpdateArgs, type PlaceCreateArgs, type PlaceDeleteArgs, type PlaceUpdateArgs } from "../../../shared/places.js";
import { idIn } from "../../commands/bulk.js";
import { pick } from "../../commands/history.js";
import { SegmentChanges } from "../../commands/segment.js";
import { lockTargets } from "../../commands/targets.js";
import { deleteRefusal } from "../../../sync/op-rules.js";
import { refusalError } from "../../errors/refusal.js";
import { defineCommand, type CommandContext } from "../../commands/types.js";
import { placeKinds, places, things } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import { secretHistoryKeys, secretRowsFor, secretWriteProblem, splitSecretFields, writeSecretValues, type SecretRowWrite } from "../secrets/values.js";
import { fieldChecker, mergeFields } from "./fields.js";
import { chainsOf } from "../../db/tree.js";

type PlaceRow = typeof places.$inferSelect;
/** What a parent check reads of a place. */
type Parent = Pick<PlaceRow, "id" | "locationId" | "isUnplaced" | "deletedAt">;

/** Places referred to as parents: read, not locked (a parent is not written). */
async function loadParents(ctx: CommandContext, ids: string[]): Promise<Map<string, Parent>> {
  if (!ids.length) return new Map();
  const found = await ctx.tx
    .select({ id: places.id, locationId: places.locationId, isUnplaced: places.isUnplaced, deletedAt: places.deletedAt })
    .from(places)
    .where(inArray(places.id, ids));
  return new Map(found.map((p) => [p.id, p]));
}

/** Place kinds by id: their account and whether they are archived. */
async function loadKinds(ctx: CommandContext, ids: string[]) {
  if (!ids.length) return new Map<string, { accountId: string; archived: boolean }>();
  const found = await ctx.tx
    .select({ id: placeKinds.id, accountId: placeKinds.accountId, archivedAt: placeKinds.archivedAt })
    .from(placeKinds)
    .where(and(inArray(placeKinds.id, ids), isNull(placeKinds.deletedAt)));
  return new Map(found.map((k) => [k.id, { accountId: k.accountId, archived: !!k.archivedAt }]));
}

/** Why a place cannot take `kindId` (another account's: not found; archived: offered for no place), or null. */
function kindProblem(kind: { accountId: string; archived: boolean } | undefined, account: string | undefined): AppError | null {
  if (!kind || kind.accountId !== account) return new NotFoundError("place kind");
  return kind.archived ? new ValidationError("kindId: that place kind is archived; no place takes it now.", { field: "kindId" }) : null;
}

/** Ancestors of each place (itself included), for cycle checks on re-parenting. */
function parentProblem(parent: Parent | undefined, loc: string): AppError | null {
  if (!parent || parent.locationId !== loc || parent.deletedAt) return new NotFoundError("parent place");
  if (parent.isUnplaced) return new ValidationError("parentId: nothing can be placed inside the Unplaced area.");
  return null;
}

export const placeCreate = defineCommand<PlaceCreateArgs>({
  name: "place.create",
  args: placeCreateArgs,
  minRole: "member",
  refs: (a) => [a.parentId, a.kindId],
  creates: true,
  async run(ctx, ops) {
    const parents = await loadParents(
      ctx,
      ops.map((o) => o.args.parentId).filter((x): x is string => !!x),
    );
    const kinds = await loadKinds(
      ctx,
      ops.map((o) => o.args.kindId).filter((x): x is string => !!x),
    );
    const checker = await fieldChecker(
      ctx,
      ops.map((o) => o.args),
    );
    const changes = new SegmentChanges(ctx);
    const secrets: SecretRowWrite[] = [];
    for (const { args, input } of ops) {
      const loc = input.locationId;
      // Secret values never enter `fields` (which syncs) nor history: stored encrypted after the rows.
      const split = splitSecretFields(checker.defsOf(args.kindId), args.fields);
      const secret = split.secret.filter((w) => w.value !== null);
      let problem = args.parentId ? parentProblem(parents.get(args.parentId), loc) : null;
      if (!problem && args.kindId) problem = kindProblem(kinds.get(args.kindId), ctx.accounts.get(loc));
      // Required fields are enforced on a new place as on a new thing (not when a kind changes later).
      if (!problem) problem = checker.problem(args.kindId, args.fields ?? {}, loc, true) ?? secretWriteProblem(ctx, secret);
      if (problem) {
        changes.refuse(problem);
        continue;
      }
      const row: PlaceRow = {
        id: args.id,
        locationId: loc,
        parentId: args.parentId ?? null,
        kindId: args.kindId ?? null,
        name: args.name,
        isUnplaced: false,
        shortCode: null,
        fields: Object.fromEntries(Object.entries(split.plain ?? {}).filter(([, v]) => v !== null)),
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      };
      secrets.push(...secretRowsFor(ctx, loc, "place", row.id, secret));
      // A place created earlier in the segment may be the parent of a later one.
      parents.set(row.id, row);
      const keys = ["name", "parentId", "kindId", ...(Object.keys(row.fields).length ? ["fields"] : [])];
      changes.created(places, row, {
        locationId: loc,
        entityType: "place",
        entityId: row.id,
        entityName: row.name,
        action: "place.created",
        before: Object.fromEntries(keys.map((k) => [k, null])),
        after: pick(row, keys),
        hidden: secretHistoryKeys(secret),
        summaryParams: { name: row.name },
        undoable: false,
      });
    }
    const verdicts = await changes.write();
    await writeSecretValues(ctx, secrets);
    return verdicts;
  },
});

/** The columns place.update reads: those the check and the history read, and those a patch may change. */
const PLACE_KEYS = ["locationId", "name", "parentId", "kindId", "isUnplaced", "fields", "rowVersion", "deletedAt"] as const;

const unplacedProblem = (target: { isUnplaced: boolean }) => (target.isUnplaced ? new ValidationError("The Unplaced area cannot be renamed or moved.") : null);

export const placeUpdate = defineCommand<PlaceUpdateArgs>({
  name: "place.update",
  args: placeUpdateArgs,
  minRole: "member",
  refs: (a) => [a.patch.parentId, a.patch.kindId],
  async run(ctx, ops) {
    const targets = await lockTargets(ctx, places, { entity: "place", entityType: "place" }, ops, PLACE_KEYS);
    const newParents = ops.map((o) => o.args.patch.parentId).filter((x): x is string => !!x);
    const parents = await loadParents(ctx, newParents);
    const ancestors = await chainsOf(ctx.tx, "places", newParents);
    const kinds = await loadKinds(
      ctx,
      ops.map((o) => o.args.patch.kindId).filter((x): x is string => !!x),
    );
    // The values go against the kind the place has after the patch.
    const kindAfter = (o: (typeof ops)[number]) => (o.args.patch.kindId !== undefined ? o.args.patch.kindId : (targets.get(o.args.id)?.kindId ?? null));
    const checker = await fieldChecker(
      ctx,
      ops.map((o) => ({ kindId: kindAfter(o), fields: o.args.patch.fields })),
    );
    const changes = new SegmentChanges(ctx);
    const secrets: SecretRowWrite[] = [];
    for (const op of ops) {
      const { args, input } = op;
      const loc = input.locationId;
      const target = targets.get(args.id);
      // Secret values (a null clears one) are stored encrypted after the rows, never in `fields`.
      const split = splitSecretFields(checker.defsOf(kindAfter(op)), args.patch.fields);
      const patch = { ...args.patch };
      if (split.plain && Object.keys(split.plain).length) patch.fields = split.plain;
      else delete patch.fields;
      let problem = targets.problem(op, target, { fields: Object.keys(patch), also: unplacedProblem });
      if (!problem && patch.parentId) {
        problem = parentProblem(parents.get(patch.parentId), loc);
        if (!problem && ancestors.get(patch.parentId)?.has(args.id))
          problem = new ConflictError("A place cannot go inside itself or inside one of its own places.");
      }
      if (!problem && patch.kindId) problem = kindProblem(kinds.get(patch.kindId), ctx.accounts.get(loc));
      if (!problem && args.patch.fields) problem = checker.problem(kindAfter(op), args.patch.fields, loc, false) ?? secretWriteProblem(ctx, split.secret);
      if (problem || !target) {
        changes.refuse(problem!);
        continue;
      }
      const keys = Object.keys(patch) as (keyof PlaceRow)[];
      // Field values merge by key into the place's (null clears one); history keeps the whole object.
      const fields = patch.fields ? mergeFields(target.fields, patch.fields) : target.fields;
      const next = { ...target, ...(patch as Partial<PlaceRow>), fields, rowVersion: target.rowVersion + 1, updatedAt: ctx.now };
      targets.set(next);
      changes.changed(places, next, [...keys, "rowVersion", "updatedAt"], {
        locationId: loc,
        entityType: "place",
        entityId: next.id,
        entityName: next.name,
        action: "place.updated",
        before: pick(target, keys),
        after: pick(next, keys),
        hidden: secretHistoryKeys(split.secret),
        summaryParams: { name: next.name },
        // A secret's old value is not kept anywhere readable, so such a change cannot be undone.
        undoable: !split.secret.length,
      });
      secrets.push(...secretRowsFor(ctx, loc, "place", next.id, split.secret));
    }
    const verdicts = await changes.write();
    await writeSecretValues(ctx, secrets);
    return verdicts;
  },
});

/**
 * place.delete: a tombstone, undoable like a thing's. Only an empty place goes: one that still
 * holds places or things is refused, saying what to do, so nothing is ever left without a place.
 * Children deleted earlier in the same segment no longer count.
 */
export const placeDelete = defineCommand<PlaceDeleteArgs>({
  name: "place.delete",
  args: placeDeleteArgs,
  minRole: "member",
  async run(ctx, ops) {
    const targets = await lockTargets(ctx, places, { entity: "place", entityType: "place" }, ops, [
      "locationId",
      "name",
      "isUnplaced",
      "rowVersion",
      "deletedAt",
    ]);
    const ids = ops.map((o) => o.args.id);
    const [childPlaces, thingHolders] = await Promise.all([
      ctx.tx
        .select({ parentId: places.parentId, id: places.id })
        .from(places)
        .where(and(idIn(places.parentId, ids), isNull(places.deletedAt))),
      ctx.tx
        .selectDistinct({ placeId: things.placeId })
        .from(things)
        .where(and(idIn(things.placeId, ids), isNull(things.deletedAt))),
    ]);
    const children = new Map<string, Set<string>>();
    for (const c of childPlaces) if (c.parentId) children.set(c.parentId, (children.get(c.parentId) ?? new Set()).add(c.id));
    const holdsThings = new Set(thingHolders.map((t) => t.placeId));
    const deleted = new Set<string>();
    const changes = new SegmentChanges(ctx);
    for (const op of ops) {
      const target = targets.get(op.args.id);
      // The rule devices check before they queue the op (sync/op-rules.ts).
      const holding = (p: { id: string; isUnplaced: boolean }): AppError | null => {
        const refusal = deleteRefusal("place", {
          isUnplaced: p.isUnplaced,
          places: [...(children.get(p.id) ?? [])].filter((c) => !deleted.has(c)).length,
          things: holdsThings.has(p.id) ? 1 : 0,
        });
        return refusal && refusalError(refusal);
      };
      const problem = targets.problem(op, target, { fields: "all", also: holding });
      if (problem || !target) {
        changes.refuse(problem!);
        continue;
      }
      targets.set(
        changes.tombstoned(places, target, {
          locationId: target.locationId,
          entityType: "place",
          entityName: target.name,
          action: "place.deleted",
          summaryParams: { name: target.name },
          undoable: true,
        }),
      );
      deleted.add(target.id);
    }
    return changes.write();
  },
});
