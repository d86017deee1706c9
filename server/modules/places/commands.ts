/** Commands on places: create and update (rename, re-parent, change kind). */
import { and, inArray, isNull } from "drizzle-orm";
import { placeCreateArgs, placeUpdateArgs, type PlaceCreateArgs, type PlaceUpdateArgs } from "../../../shared/places.js";
import { bulkInsert, bulkUpdate } from "../../commands/bulk.js";
import { historyRow, pick, type HistoryRow } from "../../commands/history.js";
import { applied, defineCommand, rejected, type CommandContext, type Verdict } from "../../commands/types.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { historyEntries, placeKinds, places } from "../../db/schema/index.js";
import { ConflictError, GoneError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { fieldsChangedSince, versionProblem } from "../../commands/versions.js";

type PlaceRow = typeof places.$inferSelect;

async function loadPlaces(ctx: CommandContext, ids: string[], lock = false) {
  const q = ctx.tx
    .select()
    .from(places)
    .where(inArray(places.id, ids.length ? ids : ["00000000-0000-0000-0000-000000000000"]));
  const found = lock ? await q.for("update") : await q;
  return new Map(found.map((p) => [p.id, p]));
}

async function loadKinds(ctx: CommandContext, ids: string[]) {
  if (!ids.length) return new Map<string, string>();
  const found = await ctx.tx
    .select({ id: placeKinds.id, locationId: placeKinds.locationId })
    .from(placeKinds)
    .where(and(inArray(placeKinds.id, ids), isNull(placeKinds.deletedAt)));
  return new Map(found.map((k) => [k.id, k.locationId]));
}

/** Ancestors of each place (itself included), for cycle checks on re-parenting. */
async function placeAncestors(ctx: CommandContext, ids: string[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  if (!ids.length) return out;
  const found = await rows<{ start: string; id: string }>(
    ctx.tx,
    sql`WITH RECURSIVE up(start, id, parent, depth) AS (
          SELECT p.id, p.id, p.parent_id, 0 FROM places p WHERE p.id = ANY(${uuidArray(ids)})
          UNION ALL
          SELECT up.start, p.id, p.parent_id, up.depth + 1 FROM places p JOIN up ON p.id = up.parent WHERE up.depth < 64
        ) SELECT start, id FROM up`,
  );
  for (const r of found) out.set(r.start, (out.get(r.start) ?? new Set()).add(r.id));
  return out;
}

function parentProblem(parent: PlaceRow | undefined, loc: string): Error | null {
  if (!parent || parent.locationId !== loc || parent.deletedAt) return new NotFoundError("parent place");
  if (parent.isUnplaced) return new ValidationError("parentId: nothing can be placed inside the Unplaced area.");
  return null;
}

export const placeCreate = defineCommand<PlaceCreateArgs>({
  name: "place.create",
  args: placeCreateArgs,
  minRole: "member",
  target: (a) => a.id,
  refs: (a) => [a.parentId, a.kindId],
  creates: true,
  async run(ctx, ops) {
    const parents = await loadPlaces(
      ctx,
      ops.map((o) => o.args.parentId).filter((x): x is string => !!x),
    );
    const kinds = await loadKinds(
      ctx,
      ops.map((o) => o.args.kindId).filter((x): x is string => !!x),
    );
    const verdicts: Verdict[] = [];
    const inserts: PlaceRow[] = [];
    const history: HistoryRow[] = [];
    for (const { args, input } of ops) {
      const loc = input.locationId;
      let problem = args.parentId ? parentProblem(parents.get(args.parentId), loc) : null;
      if (!problem && args.kindId && kinds.get(args.kindId) !== loc) problem = new NotFoundError("place kind");
      if (problem) {
        verdicts.push(rejected(problem as NotFoundError));
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
        fields: {},
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      };
      // A place created earlier in the segment may be the parent of a later one.
      parents.set(row.id, row);
      inserts.push(row);
      const keys = ["name", "parentId", "kindId"];
      const h = historyRow(ctx, {
        locationId: loc,
        entityType: "place",
        entityId: row.id,
        entityName: row.name,
        action: "place.created",
        before: Object.fromEntries(keys.map((k) => [k, null])),
        after: pick(row, keys),
        summaryKey: "place.created",
        summaryParams: { name: row.name },
        rowVersionAfter: 1,
        undoable: false,
      });
      history.push(h);
      verdicts.push(applied(ctx, row.id, 1, h.id));
    }
    await bulkInsert(ctx.tx, places, inserts);
    await bulkInsert(ctx.tx, historyEntries, history);
    return verdicts;
  },
});

export const placeUpdate = defineCommand<PlaceUpdateArgs>({
  name: "place.update",
  args: placeUpdateArgs,
  minRole: "member",
  target: (a) => a.id,
  refs: (a) => [a.patch.parentId, a.patch.kindId],
  async run(ctx, ops) {
    const targets = await loadPlaces(
      ctx,
      ops.map((o) => o.args.id),
      true,
    );
    const changed = await fieldsChangedSince(ctx, "place", ops, targets);
    const newParents = ops.map((o) => o.args.patch.parentId).filter((x): x is string => !!x);
    const parents = await loadPlaces(ctx, newParents);
    const ancestors = await placeAncestors(ctx, newParents);
    const kinds = await loadKinds(
      ctx,
      ops.map((o) => o.args.patch.kindId).filter((x): x is string => !!x),
    );
    const verdicts: Verdict[] = [];
    const updates: PlaceRow[] = [];
    const history: HistoryRow[] = [];
    for (const { args, input } of ops) {
      const loc = input.locationId;
      const target = targets.get(args.id);
      const { patch } = args;
      let problem: Error | null;
      if (!target || target.locationId !== loc) problem = new NotFoundError("place");
      else if (target.deletedAt) problem = new GoneError("place");
      else if (target.isUnplaced) problem = new ValidationError("The Unplaced area cannot be renamed or moved.");
      else problem = versionProblem({ input, args }, target, Object.keys(patch), changed);
      if (!problem && patch.parentId) {
        problem = parentProblem(parents.get(patch.parentId), loc);
        if (!problem && ancestors.get(patch.parentId)?.has(args.id))
          problem = new ConflictError("A place cannot go inside itself or inside one of its own places.");
      }
      if (!problem && patch.kindId && kinds.get(patch.kindId) !== loc) problem = new NotFoundError("place kind");
      if (problem || !target) {
        verdicts.push(rejected(problem as NotFoundError));
        continue;
      }
      const keys = Object.keys(patch);
      const next: PlaceRow = { ...target, ...(patch as Partial<PlaceRow>), rowVersion: target.rowVersion + 1, updatedAt: ctx.now };
      updates.push(next);
      const h = historyRow(ctx, {
        locationId: loc,
        entityType: "place",
        entityId: next.id,
        entityName: next.name,
        action: "place.updated",
        before: pick(target, keys),
        after: pick(next, keys),
        summaryKey: "place.updated",
        summaryParams: { name: next.name },
        rowVersionAfter: next.rowVersion,
        undoable: true,
      });
      history.push(h);
      verdicts.push(applied(ctx, next.id, next.rowVersion, h.id));
    }
    await bulkUpdate(ctx.tx, places, updates);
    await bulkInsert(ctx.tx, historyEntries, history);
    return verdicts;
  },
});
