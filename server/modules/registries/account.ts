/**
 * What every registry command shares: a registry row belongs to the owner account of the location
 * an op is made through (`ctx.accounts`), and rows of other accounts read as not found.
 */
import { and, inArray, isNull } from "drizzle-orm";
import type { TargetRow, TargetRule } from "../../commands/targets.js";
import type { CommandContext, Op } from "../../commands/types.js";
import { typeFields, types } from "../../db/schema/index.js";
import { ConflictError } from "../../errors/classes.js";

/**
 * The target rule of a registry table: a row "is in" the op's location when it belongs to that
 * location's account. Each target has one op in a segment, so the op is found by the row's id.
 */
export function accountRule<R extends TargetRow & { accountId: string }>(
  ctx: CommandContext,
  ops: Op<{ id: string }>[],
  entity: string,
  entityType: string,
): TargetRule<R> & { entityType: string } {
  const via = new Map(ops.map((o) => [o.args.id, o.input.locationId]));
  return {
    entity,
    entityType,
    tombstone: "not-found",
    locationOf: (row) => {
      const loc = via.get(row.id);
      return loc !== undefined && ctx.accounts.get(loc) === row.accountId ? loc : undefined;
    },
  };
}

/** The accounts a segment's ops write to. */
export const accountsOf = (ctx: CommandContext, ops: Op<unknown>[]) =>
  [...new Set(ops.map((o) => ctx.accounts.get(o.input.locationId)))].filter((a): a is string => !!a);

export type TypeNode = Pick<typeof types.$inferSelect, "id" | "accountId" | "parentId" | "groupIds" | "isGroup" | "builtinKey" | "archivedAt">;

/** Every live type of these accounts, by id (registries are small: parents, groups and cycles are checked in memory). */
export async function loadTypes(ctx: CommandContext, accountIds: string[]): Promise<Map<string, TypeNode>> {
  if (!accountIds.length) return new Map();
  const found = await ctx.tx
    .select({
      id: types.id,
      accountId: types.accountId,
      parentId: types.parentId,
      groupIds: types.groupIds,
      isGroup: types.isGroup,
      builtinKey: types.builtinKey,
      archivedAt: types.archivedAt,
    })
    .from(types)
    .where(and(inArray(types.accountId, accountIds), isNull(types.deletedAt)));
  return new Map(found.map((t) => [t.id, t]));
}

/** Every type field of these accounts (archived ones too: a key names one field of its owner for good). */
export async function loadFieldKeys(ctx: CommandContext, accountIds: string[]): Promise<Set<string>> {
  if (!accountIds.length) return new Set();
  const found = await ctx.tx
    .select({ typeId: typeFields.typeId, placeKindId: typeFields.placeKindId, key: typeFields.key })
    .from(typeFields)
    .where(and(inArray(typeFields.accountId, accountIds), isNull(typeFields.deletedAt)));
  return new Set(found.map((f) => ownerKey(f.typeId ?? f.placeKindId ?? "", f.key)));
}

export const ownerKey = (ownerId: string, key: string) => `${ownerId}/${key}`;

export const keyTaken = (key: string) => new ConflictError(`A field with the key "${key}" already exists here; pick another key.`, { field: "key", key });

/** The unique indexes that keep a field key per owner (a race two checks could not see). */
const KEY_INDEXES = ["type_fields_key_per_type", "type_fields_key_per_place_kind"];

/** True when `err` is the database refusing a duplicate field key. */
export function isKeyRace(err: unknown): boolean {
  const cause = ((err as { cause?: unknown }).cause ?? err) as { code?: string; constraint?: string; message?: string };
  return cause.code === "23505" && KEY_INDEXES.some((i) => cause.constraint === i || (cause.message ?? "").includes(i));
}

/**
 * The archivedAt an edit sets: nothing when it says nothing of archiving; when it archives, the
 * time the row was archived already, else now; null when it brings the row back.
 */
export const archiving = (archived: boolean | undefined, was: Date | null, now: Date): { archivedAt?: Date | null } =>
  archived === undefined ? {} : { archivedAt: archived ? (was ?? now) : null };

/** How the history names the edits of a place kind or a type: by its name, or the built-in key of one without. */
export const registryNaming = (entityType: string) => ({
  entityType,
  nameOf: (row: { name: string | null; builtinKey: string | null }) => row.name ?? row.builtinKey,
  undoable: false,
});
