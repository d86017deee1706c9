/** Commands on things: create, update, move, delete. Each runs set-based over a segment of ops. */
import { and, isNull } from "drizzle-orm";
import { thingCreateArgs, thingDeleteArgs, thingMoveArgs, thingUpdateArgs, type ThingCreateArgs, type ThingPatch } from "../../../shared/things.js";
import { idIn } from "../../commands/bulk.js";
import type { FieldClass } from "../../commands/history.js";
import { SegmentChanges } from "../../commands/segment.js";
import { lockTargets, type Targets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { things } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import { fieldValueProblem } from "../types/fields.js";
import { changeThing } from "./changes.js";
import { containerAncestors, loadRefs, type Refs } from "./refs.js";
import { TARGET_KEYS, readValue, readValues, writeValues, type ThingRow, type ThingTarget } from "./values.js";

const CREATE_KEYS = [
  "name",
  "typeId",
  "quantity",
  "lifecycle",
  "isContainer",
  "placeId",
  "containerId",
  "description",
  "condition",
  "brandId",
  "model",
  "colour",
  "serial",
];

/** Checks custom field values against the type's fields; returns the first problem. */
function fieldsProblem(refs: Refs, typeId: string, fields: Record<string, unknown>): ValidationError | null {
  const defs = refs.fieldsOf(typeId);
  for (const [key, value] of Object.entries(fields)) {
    const def = defs.get(key);
    if (!def) return new ValidationError(`fields.${key}: the type has no field "${key}".`, { field: key });
    const why = fieldValueProblem(def.field, value);
    if (why) return new ValidationError(`fields.${key}: ${why}.`, { field: key });
  }
  return null;
}

function fieldClasses(refs: Refs, typeId: string, keys: Iterable<string>): Record<string, FieldClass> {
  const defs = refs.fieldsOf(typeId);
  const out: Record<string, FieldClass> = {};
  for (const k of keys) {
    if (!k.startsWith("fields.")) continue;
    const f = defs.get(k.slice(7))?.field;
    out[k] = f?.secret ? "secret" : f?.kind === "money" ? "money" : "plain";
  }
  return out;
}

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

export const thingCreate = defineCommand<ThingCreateArgs>({
  name: "thing.create",
  args: thingCreateArgs,
  minRole: "member",
  target: (a) => a.id,
  refs: (a) => [a.placeId, a.containerId, a.typeId, a.brandId],
  creates: true,
  async run(ctx, ops) {
    const refs = await loadRefs(ctx.tx, {
      locationIds: ops.map((o) => o.input.locationId),
      placeIds: ops.map((o) => o.args.placeId),
      containerIds: ops.map((o) => o.args.containerId),
      brandIds: ops.map((o) => o.args.brandId),
    });
    // Containers created earlier in this same segment count as existing.
    for (const { args, input } of ops) {
      const isContainer = args.isContainer ?? refs.types.get(args.typeId ?? "")?.containerByDefault ?? false;
      if (isContainer)
        refs.containers.set(args.id, {
          id: args.id,
          locationId: input.locationId,
          isContainer,
          name: args.name ?? null,
          containerId: args.containerId ?? null,
        });
    }
    const changes = new SegmentChanges(ctx);
    for (const op of ops) {
      const { args, input } = op;
      const loc = input.locationId;
      const typeId = args.typeId ?? refs.defaultTypeByLocation.get(loc);
      const type = typeId ? refs.types.get(typeId) : undefined;
      const container = args.containerId ? refs.containers.get(args.containerId) : undefined;
      const place = args.placeId ? refs.places.get(args.placeId) : undefined;
      let problem: AppError | null = null;
      if (!type || type.locationId !== loc || type.isGroup) problem = new NotFoundError("type");
      else if (args.placeId && (!place || place.locationId !== loc)) problem = new NotFoundError("place");
      else if (args.containerId && (!container || container.locationId !== loc)) problem = new NotFoundError("container");
      else if (container && !container.isContainer) problem = new ValidationError("containerId: that thing is not a container.");
      else if (args.brandId && refs.brands.get(args.brandId)?.locationId !== loc) problem = new NotFoundError("brand");
      else if (args.fields) problem = fieldsProblem(refs, type.id, args.fields);
      if (problem || !type) {
        changes.refuse(problem!);
        continue;
      }
      const row: ThingRow = {
        id: args.id,
        locationId: loc,
        placeId: container ? null : (args.placeId ?? refs.unplacedByLocation.get(loc) ?? null),
        containerId: args.containerId ?? null,
        typeId: type.id,
        name: args.name ?? null,
        description: args.description ?? null,
        quantity: args.quantity ?? "1.000",
        lifecycle: args.lifecycle ?? "active",
        condition: args.condition ?? null,
        brandId: args.brandId ?? null,
        model: args.model ?? null,
        colour: args.colour ?? null,
        serial: args.serial ?? null,
        fields: Object.fromEntries(Object.entries(args.fields ?? {}).filter(([, v]) => v !== null)),
        shortCode: null,
        isContainer: args.isContainer ?? type.containerByDefault,
        coverFileId: null,
        lastSeenAt: ctx.now,
        missingSince: null,
        createdBy: ctx.actor.userId,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      };
      changes.insert(things, row);
      const shown = [...CREATE_KEYS.filter((k) => k === "name" || readValue(row, k) !== null), ...Object.keys(row.fields).map((k) => `fields.${k}`)];
      const after = readValues(row, shown);
      const eventId = changes.record({
        locationId: loc,
        entityType: "thing",
        entityId: row.id,
        entityName: row.name,
        action: "thing.created",
        before: Object.fromEntries(shown.map((k) => [k, null])),
        after,
        classes: fieldClasses(refs, type.id, shown),
        summaryKey: "thing.created",
        summaryParams: { name: row.name ?? "" },
        rowVersionAfter: 1,
        undoable: true,
      });
      changes.applied(row.id, 1, eventId);
    }
    return changes.write();
  },
});

export const thingUpdate = defineCommand({
  name: "thing.update",
  args: thingUpdateArgs,
  minRole: "member",
  target: (a) => a.id,
  refs: (a) => [a.patch.typeId, a.patch.brandId],
  async run(ctx, ops) {
    const targets = await lockThings(ctx, ops, patchedColumns(ops));
    const refs = await loadRefs(ctx.tx, {
      locationIds: ops.map((o) => o.input.locationId),
      brandIds: ops.map((o) => o.args.patch.brandId),
    });
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
    const changes = new SegmentChanges(ctx);
    for (const op of ops) {
      const target = targets.get(op.args.id);
      const { patch } = op.args;
      const loc = op.input.locationId;
      const values = patchValues(patch);
      const keys = Object.keys(values);
      let problem = targets.problem(op, target, { fields: keys });
      const typeId = patch.typeId ?? target?.typeId ?? "";
      if (!problem && patch.typeId && (refs.types.get(patch.typeId)?.locationId !== loc || refs.types.get(patch.typeId)?.isGroup))
        problem = new NotFoundError("type");
      else if (!problem && patch.brandId && refs.brands.get(patch.brandId)?.locationId !== loc) problem = new NotFoundError("brand");
      else if (!problem && patch.isContainer === false && nonEmpty.has(op.args.id))
        problem = new ConflictError("This container still holds things; move them out before it stops being a container.");
      else if (!problem && patch.fields) problem = fieldsProblem(refs, typeId, patch.fields);
      if (problem || !target) {
        changes.refuse(problem!);
        continue;
      }
      const next = writeValues(target, values);
      next.rowVersion = target.rowVersion + 1;
      next.updatedAt = ctx.now;
      targets.set(next);
      changes.applied(
        next.id,
        next.rowVersion,
        changeThing(changes, target, next, { action: "thing.updated", keys, classes: fieldClasses(refs, typeId, keys) }),
      );
    }
    return changes.write();
  },
});

export const thingMove = defineCommand({
  name: "thing.move",
  args: thingMoveArgs,
  minRole: "member",
  target: (a) => a.id,
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
    const changes = new SegmentChanges(ctx);
    const nameOf = (placeId: string | null, containerId: string | null) =>
      (containerId ? refs.containers.get(containerId)?.name : refs.places.get(placeId ?? "")?.name) ?? "";
    for (const op of ops) {
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
      if (problem || !target) {
        changes.refuse(problem!);
        continue;
      }
      const values = { placeId: placeId ?? null, containerId: containerId ?? null };
      const next = writeValues(target, values);
      next.lastSeenAt = ctx.now;
      next.rowVersion = target.rowVersion + 1;
      next.updatedAt = ctx.now;
      targets.set(next);
      const eventId = changeThing(changes, target, next, {
        action: "thing.moved",
        keys: ["placeId", "containerId"],
        summaryParams: { from: nameOf(target.placeId ?? null, target.containerId ?? null), to: nameOf(values.placeId, values.containerId) },
        touches: ["lastSeenAt"],
      });
      changes.applied(next.id, next.rowVersion, eventId);
    }
    return changes.write();
  },
});

export const thingDelete = defineCommand({
  name: "thing.delete",
  args: thingDeleteArgs,
  minRole: "member",
  target: (a) => a.id,
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
    const changes = new SegmentChanges(ctx);
    for (const op of ops) {
      const target = targets.get(op.args.id);
      let problem = targets.problem(op, target);
      if (!problem && holding.has(op.args.id)) problem = new ConflictError("This container still holds things; move or delete them first.");
      if (problem || !target) {
        changes.refuse(problem!);
        continue;
      }
      const next = { ...target, deletedAt: ctx.now, rowVersion: target.rowVersion + 1, updatedAt: ctx.now };
      changes.applied(next.id, next.rowVersion, changeThing(changes, target, next, { action: "thing.deleted", keys: ["deletedAt"] }));
    }
    return changes.write();
  },
});
