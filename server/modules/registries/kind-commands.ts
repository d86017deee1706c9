/** Place kinds (create, rename, archive), brands and tags of the owner account: admins manage them. */
import {
  brandCreateArgs,
  placeKindCreateArgs,
  placeKindUpdateArgs,
  tagCreateArgs,
  type BrandCreateArgs,
  type PlaceKindCreateArgs,
  type PlaceKindUpdateArgs,
  type TagCreateArgs,
} from "../../../shared/registries.js";
import { eachOp, onTargets } from "../../commands/runs.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { brands, placeKinds, tags } from "../../db/schema/index.js";
import { NotFoundError, ValidationError } from "../../errors/classes.js";
import { accountRule, archiving, registryNaming } from "./account.js";

/** Creates one plain registry row per op (in the account of the op's location), with its history entry. */
async function createRows<A extends { id: string; name: string }>(
  ctx: CommandContext,
  ops: Op<A>[],
  entityType: string,
  table: typeof placeKinds | typeof brands | typeof tags,
  row: (args: A, accountId: string) => Record<string, unknown>,
) {
  return eachOp(ctx, ops, (changes, { args, input }) => {
    const accountId = ctx.accounts.get(input.locationId);
    if (!accountId) return changes.refuse(new NotFoundError("location"));
    const values = row(args, accountId);
    const keys = Object.keys(values);
    changes.created(
      table,
      { id: args.id, accountId, ...values, rowVersion: 1, createdAt: ctx.now, updatedAt: ctx.now, deletedAt: null },
      {
        locationId: input.locationId,
        entityType,
        entityId: args.id,
        entityName: args.name,
        action: `${entityType}.created`,
        before: Object.fromEntries(keys.map((k) => [k, null])),
        after: values,
        summaryParams: { name: args.name },
        undoable: false,
      },
    );
  });
}

export const placeKindCreate = defineCommand<PlaceKindCreateArgs>({
  name: "place_kind.create",
  args: placeKindCreateArgs,
  minRole: "admin",
  creates: true,
  run: (ctx, ops) => createRows(ctx, ops, "place_kind", placeKinds, (a) => ({ name: a.name, icon: a.icon ?? "place" })),
});

export const brandCreate = defineCommand<BrandCreateArgs>({
  name: "brand.create",
  args: brandCreateArgs,
  minRole: "admin",
  creates: true,
  run: (ctx, ops) => createRows(ctx, ops, "brand", brands, (a) => ({ name: a.name })),
});

export const tagCreate = defineCommand<TagCreateArgs>({
  name: "tag.create",
  args: tagCreateArgs,
  minRole: "admin",
  creates: true,
  run: (ctx, ops) => createRows(ctx, ops, "tag", tags, (a) => ({ name: a.name, colour: a.colour ?? null })),
});

const KIND_KEYS = ["accountId", "name", "icon", "builtinKey", "archivedAt", "rowVersion", "deletedAt"] as const;

const lockKinds = (ctx: CommandContext, ops: Op<{ id: string }>[]) =>
  lockTargets(ctx, placeKinds, accountRule(ctx, ops, "place kind", "place_kind"), ops, KIND_KEYS);

export const placeKindUpdate = defineCommand<PlaceKindUpdateArgs>({
  name: "place_kind.update",
  args: placeKindUpdateArgs,
  minRole: "admin",
  run: onTargets(lockKinds, (changes, op, target, targets, ctx) => {
    const { archived, ...patch } = op.args.patch;
    const columns: (keyof typeof placeKinds.$inferSelect)[] = Object.keys(patch) as (keyof typeof patch)[];
    if (archived !== undefined) columns.push("archivedAt");
    const problem = targets.problem(op, target, {
      fields: columns,
      also: (k) => (k.builtinKey && patch.name !== undefined ? new ValidationError("name: a built-in place kind cannot be renamed.", { field: "name" }) : null),
    });
    if (changes.refused(problem, target)) return;
    const edit = { ...(patch as Partial<typeof placeKinds.$inferSelect>), ...archiving(archived, target.archivedAt, ctx.now) };
    targets.set(changes.patched(placeKinds, target, edit, op.input.locationId, registryNaming("place_kind")));
  }),
});
