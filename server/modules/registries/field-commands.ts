/**
 * Fields of a type or a place kind: type_field.create, type_field.update, type_field.archive.
 * A key names one field of its owner for good (archived fields keep theirs, and their values stay
 * on things and places); a secret field is the owner's to make.
 */
import { and, inArray, isNull } from "drizzle-orm";
import {
  fieldOwnerOf,
  fieldShapeProblem,
  typeFieldArchiveArgs,
  typeFieldCreateArgs,
  typeFieldUpdateArgs,
  type TypeFieldArchiveArgs,
  type TypeFieldCreateArgs,
  type TypeFieldUpdateArgs,
} from "../../../shared/registries.js";
import { pick } from "../../commands/history.js";
import { onTargets } from "../../commands/runs.js";
import { SegmentChanges } from "../../commands/segment.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { placeKinds, typeFields, types } from "../../db/schema/index.js";
import { ForbiddenError, NotFoundError, ValidationError } from "../../errors/classes.js";
import { accountRule, accountsOf, isKeyRace, keyTaken, loadFieldKeys, ownerKey } from "./account.js";

type FieldRow = typeof typeFields.$inferSelect;

/** The owners (types and place kinds) the ops name, with their accounts. */
async function loadOwners(ctx: CommandContext, ops: Op<TypeFieldCreateArgs>[]) {
  const typeIds = ops.map((o) => fieldOwnerOf(o.args).typeId).filter((x): x is string => !!x);
  const kindIds = ops.map((o) => fieldOwnerOf(o.args).placeKindId).filter((x): x is string => !!x);
  const [t, k] = await Promise.all([
    typeIds.length
      ? ctx.tx
          .select({ id: types.id, accountId: types.accountId })
          .from(types)
          .where(and(inArray(types.id, typeIds), isNull(types.deletedAt)))
      : [],
    kindIds.length
      ? ctx.tx
          .select({ id: placeKinds.id, accountId: placeKinds.accountId })
          .from(placeKinds)
          .where(and(inArray(placeKinds.id, kindIds), isNull(placeKinds.deletedAt)))
      : [],
  ]);
  return new Map([...t, ...k].map((o) => [o.id, o.accountId]));
}

const FIELD_HISTORY_KEYS = ["key", "label", "kind", "unit", "options", "repeatable", "required", "secret", "sort"];

export const typeFieldCreate = defineCommand<TypeFieldCreateArgs>({
  name: "type_field.create",
  args: typeFieldCreateArgs,
  minRole: "admin",
  refs: (a) => Object.values(fieldOwnerOf(a)),
  creates: true,
  async run(ctx, ops) {
    const accounts = accountsOf(ctx, ops);
    const [owners, taken] = await Promise.all([loadOwners(ctx, ops), loadFieldKeys(ctx, accounts)]);
    const changes = new SegmentChanges(ctx);
    for (const { args, input } of ops) {
      const account = ctx.accounts.get(input.locationId);
      const { typeId, placeKindId } = fieldOwnerOf(args);
      const ownerId = (typeId ?? placeKindId)!;
      const slot = ownerKey(ownerId, args.key);
      if (!account || owners.get(ownerId) !== account) changes.refuse(new NotFoundError(typeId ? "type" : "place kind"));
      else if (args.secret && ctx.roles.get(input.locationId) !== "owner")
        changes.refuse(new ForbiddenError("Only the owner can make a secret field.", { role: ctx.roles.get(input.locationId), needed: "owner" }));
      else if (taken.has(slot)) changes.refuse(keyTaken(args.key));
      else {
        taken.add(slot);
        const row: FieldRow = {
          id: args.id,
          accountId: account,
          typeId,
          placeKindId,
          key: args.key,
          label: args.label,
          labelKey: null,
          kind: args.kind,
          unit: args.unit ?? null,
          options: args.options ?? null,
          repeatable: args.repeatable ?? false,
          required: args.required ?? false,
          secret: args.secret ?? false,
          sort: args.sort ?? 0,
          archivedAt: null,
          rowVersion: 1,
          createdAt: ctx.now,
          updatedAt: ctx.now,
          deletedAt: null,
        };
        changes.created(typeFields, row, {
          locationId: input.locationId,
          entityType: "type_field",
          entityId: row.id,
          entityName: row.label,
          action: "type_field.created",
          before: Object.fromEntries(FIELD_HISTORY_KEYS.map((k) => [k, null])),
          after: pick(row, FIELD_HISTORY_KEYS),
          summaryParams: { name: row.label ?? row.key },
          undoable: false,
        });
      }
    }
    try {
      return await changes.write();
    } catch (err) {
      // Two writers added the same key at once: the index refused the later; it answers as the check would.
      if (ops.length === 1 && isKeyRace(err)) throw keyTaken(ops[0]!.args.key);
      throw err;
    }
  },
});

const FIELD_KEYS = ["accountId", "key", "label", "kind", "unit", "options", "repeatable", "archivedAt", "required", "sort", "rowVersion", "deletedAt"] as const;

/** How the history names a field's edits. */
const fieldNaming = { entityType: "type_field", nameOf: (f: Pick<FieldRow, "label" | "key">) => f.label ?? f.key, undoable: false };

const lockFields = (ctx: CommandContext, ops: Op<{ id: string }>[]) =>
  lockTargets(ctx, typeFields, accountRule(ctx, ops, "type field", "type_field"), ops, FIELD_KEYS);

export const typeFieldUpdate = defineCommand<TypeFieldUpdateArgs>({
  name: "type_field.update",
  args: typeFieldUpdateArgs,
  minRole: "admin",
  run: onTargets(lockFields, (changes, op, target, targets) => {
    const { args, input } = op;
    const columns = Object.keys(args.patch) as (keyof FieldRow)[];
    const problem = targets.problem(op, target, {
      fields: columns,
      also: (t) => {
        const shape = fieldShapeProblem({ ...t, ...args.patch });
        return shape ? new ValidationError(`${shape.path}: ${shape.message}.`, { field: shape.path }) : null;
      },
    });
    if (changes.refused(problem, target)) return;
    targets.set(changes.patched(typeFields, target, args.patch as Partial<FieldRow>, input.locationId, fieldNaming));
  }),
});

export const typeFieldArchive = defineCommand<TypeFieldArchiveArgs>({
  name: "type_field.archive",
  args: typeFieldArchiveArgs,
  minRole: "admin",
  run: onTargets(lockFields, (changes, op, target, targets, ctx) => {
    if (changes.refused(targets.problem(op, target, { fields: ["archivedAt"] }), target)) return;
    // Archiving an archived field changes nothing and says so (no new version, no history entry).
    if (target.archivedAt) return changes.applied(target.id, target.rowVersion, null);
    targets.set(changes.patched(typeFields, target, { archivedAt: ctx.now }, op.input.locationId, fieldNaming, "archived"));
  }),
});
