/** Commands on existing things: update, move, delete. Each runs set-based over a segment of ops (thing.create is in create.ts). */
import { and, isNull } from "drizzle-orm";
import { thingDeleteArgs, thingMoveArgs, thingUpdateArgs, type ThingPatch } from "../../../shared/things.js";
import type { FieldStatus } from "../../../shared/extractions.js";
import { idIn } from "../../commands/bulk.js";
import { eachOp } from "../../commands/runs.js";
import { lockTargets, type Targets } from "../../commands/targets.js";
import { deleteRefusal } from "../../../sync/op-rules.js";
import { refusalError } from "../../errors/refusal.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { things } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { changeThing, editThing } from "./changes.js";
import { fileLocations, valuesProblem } from "../registries/field-values.js";
import { fileIdsOf } from "../types/fields.js";
import { fieldClasses } from "./custom-fields.js";
import { secretHistoryKeys, secretRowsFor, secretWriteProblem, splitSecretFields, writeSecretValues, type SecretRowWrite } from "../secrets/values.js";
import { containerAncestors, loadRefs } from "./refs.js";
import { loadTags, tagsProblem } from "./tags.js";
import { TARGET_KEYS, writeValues, type ThingRow, type ThingTarget } from "./values.js";

/** Locks the ops' targets: the columns every command reads and `keys`, those it changes. */
function lockThings(ctx: CommandContext, ops: Op<{ id: string }>[], keys: readonly (keyof ThingRow)[]): Promise<Targets<ThingTarget>> {
  return lockTargets(ctx, things, { entity: "thing", entityType: "thing" }, ops, [...TARGET_KEYS, ...keys]) as Promise<Targets<ThingTarget>>;
}

/** The columns a segment of patches changes (`fields` for any custom field). */
function patchedColumns(ops: Op<{ patch: ThingPatch }>[]): (keyof ThingRow)[] {
  const keys = new Set<keyof ThingRow>();
  for (const { args } of ops) for (const k of Object.keys(args.patch) as (keyof ThingPatch)[]) keys.add(k);
  return [...keys];
}

/** Patch keys as history keys: columns by name, custom fields as `fields.<key>`. */
function patchValues(patch: ThingPatch): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === "fields") for (const [fk, fv] of Object.entries(v as Record<string, unknown>)) out[`fields.${fk}`] = fv;
    else out[k] = v;
  }
  return out;
}

/** The field status without `keys`: their values are a person's own now (an absent entry reads `manual`). */
function personalValues(status: FieldStatus, keys: string[]): FieldStatus {
  if (!keys.some((k) => k in status)) return status;
  return Object.fromEntries(Object.entries(status).filter(([k]) => !keys.includes(k)));
}

export const thingUpdate = defineCommand({
  name: "thing.update",
  args: thingUpdateArgs,
  minRole: "member",
  refs: (a) => [a.patch.typeId, a.patch.brandId, ...(a.patch.tagIds ?? [])],
  async run(ctx, ops) {
    const targets = await lockThings(ctx, ops, [...patchedColumns(ops), "fieldStatus"]);
    const refs = await loadRefs(ctx.tx, {
      locationIds: ops.map((o) => o.input.locationId),
      brandIds: ops.map((o) => o.args.patch.brandId),
    });
    const tags = await loadTags(
      ctx.tx,
      ops.flatMap((o) => o.args.patch.tagIds ?? []),
    );
    const emptying = ops.filter((o) => o.args.patch.isContainer === false).map((o) => o.args.id);
    const nonEmpty = new Set(
      emptying.length
        ? (
            await ctx.tx
              .select({ id: things.containerId })
              .from(things)
              .where(and(idIn(things.containerId, emptying), isNull(things.deletedAt)))
          ).map((r) => r.id)
        : [],
    );
    const typeAfter = (o: (typeof ops)[number]) => o.args.patch.typeId ?? targets.get(o.args.id)?.typeId ?? "";
    const files = await fileLocations(
      ctx,
      ops.flatMap((o) => (o.args.patch.fields ? fileIdsOf(refs.fieldsOf(typeAfter(o)), o.args.patch.fields) : [])),
    );
    const secrets: SecretRowWrite[] = [];
    const verdicts = await eachOp(ctx, ops, (changes, op) => {
      const target = targets.get(op.args.id);
      const { patch } = op.args;
      const loc = op.input.locationId;
      const typeId = patch.typeId ?? target?.typeId ?? "";
      // Secret values never enter `fields` nor the history's values: stored encrypted after the rows.
      const split = splitSecretFields(refs.fieldsOf(typeId), patch.fields);
      const values = patchValues(split.plain ? { ...patch, fields: split.plain } : patch);
      const keys = Object.keys(values);
      let problem = targets.problem(op, target, { fields: keys });
      if (!problem && patch.typeId && (refs.types.get(patch.typeId)?.accountId !== refs.accountOf.get(loc) || refs.types.get(patch.typeId)?.isGroup))
        problem = new NotFoundError("type");
      else if (!problem && patch.brandId && refs.brands.get(patch.brandId)?.accountId !== refs.accountOf.get(loc)) problem = new NotFoundError("brand");
      else if (!problem && patch.isContainer === false && nonEmpty.has(op.args.id))
        problem = new ConflictError("This container still holds things; move them out before it stops being a container.");
      else if (!problem && patch.fields)
        problem =
          valuesProblem(refs.fieldsOf(typeId), patch.fields, { locationId: loc, fileLocation: files, complete: false, owner: "type" }) ??
          secretWriteProblem(ctx, split.secret);
      // tagIds is one field for the merge of stale pushed ops: the whole array is replaced.
      else if (!problem && patch.tagIds) problem = tagsProblem(patch.tagIds, refs.accountOf.get(loc), tags);
      if (changes.refused(problem, target)) return;
      const next = writeValues(target, values);
      // A person's value: what the AI read or suggested for these fields no longer applies.
      next.fieldStatus = personalValues(target.fieldStatus ?? {}, keys);
      secrets.push(...secretRowsFor(ctx, loc, "thing", next.id, split.secret));
      editThing(changes, targets, target, next, ctx.now, {
        action: "thing.updated",
        keys,
        classes: fieldClasses(refs, typeId, keys),
        secretKeys: secretHistoryKeys(split.secret),
        touches: ["fieldStatus"],
      });
    });
    await writeSecretValues(ctx, secrets);
    return verdicts;
  },
});

export const thingMove = defineCommand({
  name: "thing.move",
  args: thingMoveArgs,
  minRole: "member",
  refs: (a) => [a.placeId, a.containerId],
  async run(ctx, ops) {
    const targets = await lockThings(ctx, ops, ["placeId", "containerId"]);
    const containerIds = ops.map((o) => o.args.containerId).filter((x): x is string => !!x);
    const refs = await loadRefs(ctx.tx, {
      locationIds: ops.map((o) => o.input.locationId),
      placeIds: [...ops.map((o) => o.args.placeId), ...[...targets.values()].map((t) => t.placeId)].filter((x): x is string => !!x),
      containerIds: [...containerIds, ...[...targets.values()].map((t) => t.containerId)].filter((x): x is string => !!x),
    });
    const ancestors = await containerAncestors(ctx.tx, containerIds);
    const nameOf = (placeId: string | null, containerId: string | null) =>
      (containerId ? refs.containers.get(containerId)?.name : refs.places.get(placeId ?? "")?.name) ?? "";
    return eachOp(ctx, ops, (changes, op) => {
      const target = targets.get(op.args.id);
      const loc = op.input.locationId;
      const { placeId, containerId } = op.args;
      let problem = targets.problem(op, target, { fields: ["placeId", "containerId"] });
      const container = containerId ? refs.containers.get(containerId) : undefined;
      if (!problem && placeId && refs.places.get(placeId)?.locationId !== loc) problem = new NotFoundError("place");
      else if (!problem && containerId && container?.locationId !== loc) problem = new NotFoundError("container");
      else if (!problem && container && !container.isContainer) problem = new ValidationError("containerId: that thing is not a container.");
      else if (!problem && containerId && ancestors.get(containerId)?.has(op.args.id))
        problem = new ConflictError("A container cannot go inside itself or inside something it holds.");
      if (changes.refused(problem, target)) return;
      const values = { placeId: placeId ?? null, containerId: containerId ?? null };
      const next = writeValues(target, values);
      next.lastSeenAt = ctx.now;
      editThing(changes, targets, target, next, ctx.now, {
        action: "thing.moved",
        keys: ["placeId", "containerId"],
        summaryParams: { from: nameOf(target.placeId ?? null, target.containerId ?? null), to: nameOf(values.placeId, values.containerId) },
        touches: ["lastSeenAt"],
      });
    });
  },
});

export const thingDelete = defineCommand({
  name: "thing.delete",
  args: thingDeleteArgs,
  minRole: "member",
  async run(ctx, ops) {
    const ids = ops.map((o) => o.args.id);
    const targets = await lockThings(ctx, ops, []);
    const holding = new Set(
      (
        await ctx.tx
          .select({ id: things.containerId })
          .from(things)
          .where(and(idIn(things.containerId, ids), isNull(things.deletedAt)))
      ).map((r) => r.id),
    );
    return eachOp(ctx, ops, (changes, op) => {
      const target = targets.get(op.args.id);
      let problem = targets.problem(op, target);
      // The rule devices check before they queue the op (sync/op-rules.ts).
      const refusal = problem ? null : deleteRefusal("container", { places: 0, things: holding.has(op.args.id) ? 1 : 0 });
      if (refusal) problem = refusalError(refusal);
      if (changes.refused(problem, target)) return;
      const next = { ...target, deletedAt: ctx.now, rowVersion: target.rowVersion + 1, updatedAt: ctx.now };
      changes.applied(next.id, next.rowVersion, changeThing(changes, target, next, { action: "thing.deleted", keys: ["deletedAt"] }));
    });
  },
});
