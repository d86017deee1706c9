/**
 * Reads of an account's registries: the records the API answers (a type with every field it sees,
 * a place kind with its fields, brands, tags), one row by id, and the location a REST write acts
 * through. Reads go through RLS: a registry of an account the actor cannot read is simply absent.
 */
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Brand, PlaceKind, Tag, Type, TypeField } from "../../../shared/registries.js";
import { ROLES, type Role } from "../../../shared/roles.js";
import { locationAccess } from "../../access/location.js";
import { visibleMembership } from "../../access/visible.js";
import { type Tx, namedRows } from "../../db/client.js";
import { brands, locations, placeKinds, tags, typeFields, types } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { effectiveFields, type EffectiveField } from "../types/fields.js";

type FieldRow = typeof typeFields.$inferSelect;
type TypeRow = typeof types.$inferSelect;
type KindRow = typeof placeKinds.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const fieldOut = ({ field: f, via, ownerId }: EffectiveField): TypeField => ({
  id: f.id,
  key: f.key,
  label: f.label,
  labelKey: f.labelKey,
  kind: f.kind,
  unit: f.unit,
  options: f.options,
  repeatable: f.repeatable,
  required: f.required,
  secret: f.secret,
  sort: f.sort,
  archivedAt: iso(f.archivedAt),
  source: { typeId: ownerId, via },
  rowVersion: f.rowVersion,
});

const bySort = (a: TypeField, b: TypeField) => a.sort - b.sort || a.key.localeCompare(b.key);

/**
 * Every field a type sees, as a thing of it does (live fields: own > inherited > group), then the
 * archived ones whose key nothing live took, flagged by `archivedAt`.
 */
export function typeFieldsOut(typeId: string, all: ReadonlyMap<string, TypeRow>, fields: readonly FieldRow[]): TypeField[] {
  const group = (live: boolean) => {
    const m = new Map<string, FieldRow[]>();
    for (const f of fields) if (f.typeId && !f.archivedAt === live) (m.get(f.typeId) ?? m.set(f.typeId, []).get(f.typeId)!).push(f);
    return m;
  };
  const seen = effectiveFields(typeId, all, group(true));
  for (const [key, e] of effectiveFields(typeId, all, group(false))) if (!seen.has(key)) seen.set(key, e);
  return [...seen.values()].map(fieldOut).sort(bySort);
}

export const typeOut = (t: TypeRow, all: ReadonlyMap<string, TypeRow>, fields: readonly FieldRow[]): Type => ({
  id: t.id,
  name: t.name,
  builtinKey: t.builtinKey,
  icon: t.icon,
  parentId: t.parentId,
  groupIds: t.groupIds,
  isGroup: t.isGroup,
  containerByDefault: t.containerByDefault,
  archivedAt: iso(t.archivedAt),
  rowVersion: t.rowVersion,
  fields: typeFieldsOut(t.id, all, fields),
});

export const placeKindOut = (k: KindRow, fields: readonly FieldRow[]): PlaceKind => ({
  id: k.id,
  name: k.name,
  builtinKey: k.builtinKey,
  icon: k.icon,
  archivedAt: iso(k.archivedAt),
  rowVersion: k.rowVersion,
  fields: fields
    .filter((f) => f.placeKindId === k.id)
    .map((f) => fieldOut({ field: f, via: "own", ownerId: k.id }))
    .sort(bySort),
});

/** The owner account of a location the actor can see (404 otherwise). */
export async function accountOfLocation(tx: Tx, locationId: string): Promise<string> {
  await locationAccess(tx, locationId);
  const [l] = await tx.select({ accountId: locations.accountId }).from(locations).where(eq(locations.id, locationId));
  if (!l) throw new NotFoundError("location");
  return l.accountId;
}

const accountFields = (tx: Tx, accountId: string) =>
  tx
    .select()
    .from(typeFields)
    .where(and(eq(typeFields.accountId, accountId), isNull(typeFields.deletedAt)));

export async function typesOfAccount(tx: Tx, accountId: string): Promise<Type[]> {
  const [rows, fields] = await Promise.all([
    tx
      .select()
      .from(types)
      .where(and(eq(types.accountId, accountId), isNull(types.deletedAt)))
      .orderBy(asc(types.isGroup), sql`coalesce(${types.name}, ${types.builtinKey})`, asc(types.id)),
    accountFields(tx, accountId),
  ]);
  const all = new Map(rows.map((t) => [t.id, t]));
  return rows.map((t) => typeOut(t, all, fields));
}

export async function placeKindsOfAccount(tx: Tx, accountId: string): Promise<PlaceKind[]> {
  const [rows, fields] = await Promise.all([
    tx
      .select()
      .from(placeKinds)
      .where(and(eq(placeKinds.accountId, accountId), isNull(placeKinds.deletedAt)))
      .orderBy(sql`coalesce(${placeKinds.name}, ${placeKinds.builtinKey})`, asc(placeKinds.id)),
    accountFields(tx, accountId),
  ]);
  return rows.map((k) => placeKindOut(k, fields));
}

export async function brandsOfAccount(tx: Tx, accountId: string): Promise<Brand[]> {
  const rows = await tx
    .select({ id: brands.id, name: brands.name, rowVersion: brands.rowVersion })
    .from(brands)
    .where(and(eq(brands.accountId, accountId), isNull(brands.deletedAt)))
    .orderBy(asc(brands.name), asc(brands.id));
  return rows;
}

export async function tagsOfAccount(tx: Tx, accountId: string): Promise<Tag[]> {
  return tx
    .select({ id: tags.id, name: tags.name, colour: tags.colour, rowVersion: tags.rowVersion })
    .from(tags)
    .where(and(eq(tags.accountId, accountId), isNull(tags.deletedAt)))
    .orderBy(asc(tags.name), asc(tags.id));
}

/** One type as the API answers it (404 when the actor cannot read it). */
export async function findType(tx: Tx, id: string): Promise<TypeRow> {
  const [t] = await tx
    .select()
    .from(types)
    .where(and(eq(types.id, id), isNull(types.deletedAt)));
  if (!t) throw new NotFoundError("type");
  return t;
}

export async function typeRecord(tx: Tx, id: string): Promise<Type> {
  const t = await findType(tx, id);
  return (await typesOfAccount(tx, t.accountId)).find((x) => x.id === id)!;
}

export async function findPlaceKind(tx: Tx, id: string): Promise<KindRow> {
  const [k] = await tx
    .select()
    .from(placeKinds)
    .where(and(eq(placeKinds.id, id), isNull(placeKinds.deletedAt)));
  if (!k) throw new NotFoundError("place kind");
  return k;
}

export async function placeKindRecord(tx: Tx, id: string): Promise<PlaceKind> {
  const k = await findPlaceKind(tx, id);
  return (await placeKindsOfAccount(tx, k.accountId)).find((x) => x.id === id)!;
}

export async function brandRecord(tx: Tx, id: string): Promise<Brand> {
  const [b] = await tx.select({ id: brands.id, name: brands.name, rowVersion: brands.rowVersion }).from(brands).where(eq(brands.id, id));
  if (!b) throw new NotFoundError("brand");
  return b;
}

export async function tagRecord(tx: Tx, id: string): Promise<Tag> {
  const [t] = await tx.select({ id: tags.id, name: tags.name, colour: tags.colour, rowVersion: tags.rowVersion }).from(tags).where(eq(tags.id, id));
  if (!t) throw new NotFoundError("tag");
  return t;
}

export async function findField(tx: Tx, id: string): Promise<FieldRow> {
  const [f] = await tx
    .select()
    .from(typeFields)
    .where(and(eq(typeFields.id, id), isNull(typeFields.deletedAt)));
  if (!f) throw new NotFoundError("type field");
  return f;
}

/** A field as its owner sees it: `source` is its own type or place kind. */
export const fieldRecord = (f: FieldRow): TypeField => fieldOut({ field: f, via: "own", ownerId: (f.typeId ?? f.placeKindId)! });

/**
 * The location a registry write of `accountId` acts through: the actor's visible location of that
 * account where its role is highest (`prefer` on a tie), so an admin of any of the account's
 * locations manages its registries. A role too low is refused by the command (403).
 */
export async function actingLocation(tx: Tx, accountId: string, prefer?: string): Promise<string> {
  const found = await namedRows<{ location_id: string; role: Role }>(
    tx,
    "registry_acting_location",
    sql`SELECT m.location_id, m.role FROM memberships m JOIN locations l ON l.id = m.location_id
        WHERE l.account_id = ${accountId} AND ${visibleMembership}`,
  );
  const rank = (r: { location_id: string; role: Role }) => ROLES.indexOf(r.role) * 2 + (r.location_id === prefer ? 0 : 1);
  const best = found.sort((a, b) => rank(a) - rank(b))[0];
  if (!best) throw new NotFoundError("location");
  return best.location_id;
}
