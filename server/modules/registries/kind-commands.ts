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
import { pick } from "../../commands/history.js";
import { SegmentChanges } from "../../commands/segment.js";
import { lockTargets } from "../../commands/targets.js";
import { defineCommand, type CommandContext, type Op } from "../../commands/types.js";
import { brands, placeKinds, tags } from "../../db/schema/index.js";
import { NotFoundError, ValidationError } from "../../errors/classes.js";
import { accountRule } from "./account.js";

/** Creates one plain registry row per op (in the account of the op's location), with its history entry. */
async function createRows<A extends { id: string; name: string }>(
  ctx: CommandContext,
  ops: Op<A>[],
  entityType: string,
  table: typeof placeKinds | typeof brands | typeof tags,
  row: (args: A, accountId: string) => Record<string, unknown>,
) {
  const changes = new SegmentChanges(ctx);
  for (const { args, input } of ops) {
    const accountId = ctx.accounts.get(input.locationId);
    if (!accountId) {
      changes.refuse(new NotFoundError("location"));
      continue;
    }
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
  }
  return changes.write();
}

export const placeKindCreate = defineCommand<PlaceKindCreateArgs>({
  name: "place_kind.create",
  args: placeKindCreateArgs,
  minRole: "admin",
  target: (a) => a.id,
  creates: true,
  run: (ctx, ops) => createRows(ctx, ops, "place_kind", placeKinds, (a) => ({ name: a.name, icon: a.icon ?? "place" })),
});

export const brandCreate = defineCommand<BrandCreateArgs>({
  name: "brand.create",
  args: brandCreateArgs,
  minRole: "admin",
  target: (a) => a.id,
  creates: true,
  run: (ctx, ops) => createRows(ctx, ops, "brand", brands, (a) => ({ name: a.name })),
});

export const tagCreate = defineCommand<TagCreateArgs>({
  name: "tag.create",
  args: tagCreateArgs,
  minRole: "admin",
  target: (a) => a.id,
  creates: true,
  run: (ctx, ops) => createRows(ctx, ops, "tag", tags, (a) => ({ name: a.name, colour: a.colour ?? null })),
});

const KIND_KEYS = ["accountId", "name", "icon", "builtinKey", "archivedAt", "rowVersion", "deletedAt"] as const;

export const placeKindUpdate = defineCommand<PlaceKindUpdateArgs>({
  name: "place_kind.update",
  args: placeKindUpdateArgs,
  minRole: "admin",
  target: (a) => a.id,
  async run(ctx, ops) {
    const targets = await lockTargets(ctx, placeKinds, accountRule(ctx, ops, "place kind", "place_kind"), ops, KIND_KEYS);
    const changes = new SegmentChanges(ctx);
    for (const op of ops) {
      const { archived, ...patch } = op.args.patch;
      const target = targets.get(op.args.id);
      const columns: (keyof typeof placeKinds.$inferSelect)[] = Object.keys(patch) as (keyof typeof patch)[];
      if (archived !== undefined) columns.push("archivedAt");
      const problem = targets.problem(op, target, {
        fields: columns,
        also: (k) =>
          k.builtinKey && patch.name !== undefined ? new ValidationError("name: a built-in place kind cannot be renamed.", { field: "name" }) : null,
      });
      if (problem || !target) {
        changes.refuse(problem!);
        continue;
      }
      const archivedAt = archived === undefined ? target.archivedAt : archived ? (target.archivedAt ?? ctx.now) : null;
      const next = { ...target, ...(patch as Partial<typeof placeKinds.$inferSelect>), archivedAt, rowVersion: target.rowVersion + 1, updatedAt: ctx.now };
      targets.set(next);
      changes.changed(placeKinds, next, [...columns, "rowVersion", "updatedAt"], {
        locationId: op.input.locationId,
        entityType: "place_kind",
        entityId: next.id,
        entityName: next.name ?? next.builtinKey,
        action: "place_kind.updated",
        before: pick(target, columns),
        after: pick(next, columns),
        summaryParams: { name: next.name ?? next.builtinKey ?? "" },
        undoable: false,
      });
    }
    return changes.write();
  },
});
