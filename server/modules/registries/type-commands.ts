/**
 * type.create and type.update: a type of the owner account, with a parent (inherited fields) and
 * groups (group fields). Admins manage them; every check reads the account's types once per segment.
 */
import { typeCreateArgs, typeUpdateArgs, type TypeCreateArgs, type TypeUpdateArgs } from "../../../shared/registries.js";
import { pick } from "../../commands/history.js";
import { eachOp } from "../../commands/runs.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand } from "../../commands/types.js";
import { types } from "../../db/schema/index.js";
import { NotFoundError, ValidationError, type AppError } from "../../errors/classes.js";
import { accountRule, accountsOf, archiving, loadTypes, registryNaming, type TypeNode } from "./account.js";

type TypeRow = typeof types.$inferSelect;

/** Why `parentId` cannot be the parent of type `id` in `account`, or null. */
function parentProblem(all: ReadonlyMap<string, TypeNode>, account: string | undefined, id: string, parentId: string): AppError | null {
  const parent = all.get(parentId);
  if (!parent || parent.accountId !== account) return new NotFoundError("type");
  if (parent.isGroup) return new ValidationError("parentId: a group type cannot be a parent; list it in groupIds instead.", { field: "parentId" });
  for (let at: string | null = parentId, n = 0; at && n < 1000; at = all.get(at)?.parentId ?? null, n++)
    if (at === id) return new ValidationError("parentId: a type cannot inherit from itself or from one of its own descendants.", { field: "parentId" });
  return null;
}

function groupsProblem(all: ReadonlyMap<string, TypeNode>, account: string | undefined, groupIds: readonly string[]): AppError | null {
  for (const g of groupIds) {
    const group = all.get(g);
    if (!group || group.accountId !== account) return new NotFoundError("type");
    if (!group.isGroup) return new ValidationError(`groupIds: ${g} is not a group type.`, { field: "groupIds" });
  }
  return null;
}

const groupTypeProblem = (isGroup: boolean, parentId: string | null | undefined, groupIds: readonly string[] | undefined) =>
  isGroup && (parentId || groupIds?.length)
    ? new ValidationError("A group type takes no parent and belongs to no groups: its fields reach the types that list it.", {
        field: parentId ? "parentId" : "groupIds",
      })
    : null;

export const typeCreate = defineCommand<TypeCreateArgs>({
  name: "type.create",
  args: typeCreateArgs,
  minRole: "admin",
  refs: (a) => [a.parentId, ...(a.groupIds ?? [])],
  creates: true,
  async run(ctx, ops) {
    const all = await loadTypes(ctx, accountsOf(ctx, ops));
    return eachOp(ctx, ops, (changes, { args, input }) => {
      const account = ctx.accounts.get(input.locationId);
      const isGroup = args.isGroup ?? false;
      const problem =
        groupTypeProblem(isGroup, args.parentId, args.groupIds) ??
        (args.parentId ? parentProblem(all, account, args.id, args.parentId) : null) ??
        groupsProblem(all, account, args.groupIds ?? []);
      if (problem || !account) return changes.refuse(problem ?? new NotFoundError("location"));
      const row: TypeRow = {
        id: args.id,
        accountId: account,
        parentId: args.parentId ?? null,
        groupIds: args.groupIds ?? [],
        isGroup,
        icon: args.icon ?? "thing",
        name: args.name,
        builtinKey: null,
        containerByDefault: args.containerByDefault ?? false,
        archivedAt: null,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      };
      // A type made earlier in the segment may be the parent or group of a later one.
      all.set(row.id, row);
      const keys = ["name", "icon", "parentId", "groupIds", "isGroup", "containerByDefault"];
      changes.created(types, row, {
        locationId: input.locationId,
        entityType: "type",
        entityId: row.id,
        entityName: row.name,
        action: "type.created",
        before: Object.fromEntries(keys.map((k) => [k, null])),
        after: pick(row, keys),
        summaryParams: { name: args.name },
        undoable: false,
      });
    });
  },
});

const TYPE_KEYS = [
  "accountId",
  "name",
  "icon",
  "parentId",
  "groupIds",
  "isGroup",
  "builtinKey",
  "containerByDefault",
  "archivedAt",
  "rowVersion",
  "deletedAt",
] as const;

export const typeUpdate = defineCommand<TypeUpdateArgs>({
  name: "type.update",
  args: typeUpdateArgs,
  minRole: "admin",
  refs: (a) => [a.patch.parentId, ...(a.patch.groupIds ?? [])],
  async run(ctx, ops) {
    const targets = await lockTargets(ctx, types, accountRule(ctx, ops, "type", "type"), ops, TYPE_KEYS);
    const all = await loadTypes(ctx, accountsOf(ctx, ops));
    return eachOp(ctx, ops, (changes, op) => {
      const { args, input } = op;
      const { archived, ...patch } = args.patch;
      const target = targets.get(args.id);
      const account = ctx.accounts.get(input.locationId);
      const columns = Object.keys(patch) as (keyof TypeRow)[];
      if (archived !== undefined) columns.push("archivedAt");
      let problem = targets.problem(op, target, {
        fields: columns,
        also: (t) => (t.builtinKey && patch.name !== undefined ? new ValidationError("name: a built-in type cannot be renamed.", { field: "name" }) : null),
      });
      if (!problem && target) {
        problem =
          groupTypeProblem(target.isGroup, patch.parentId, patch.groupIds) ??
          (patch.parentId ? parentProblem(all, account, args.id, patch.parentId) : null) ??
          groupsProblem(all, account, patch.groupIds ?? []);
      }
      if (changes.refused(problem, target)) return;
      const edit = { ...(patch as Partial<TypeRow>), ...archiving(archived, target.archivedAt, ctx.now) };
      const next = changes.patched(types, target, edit, input.locationId, registryNaming("type"));
      targets.set(next);
      const node = all.get(next.id);
      if (node) all.set(next.id, { ...node, parentId: next.parentId, groupIds: next.groupIds, archivedAt: next.archivedAt });
    });
  },
});
