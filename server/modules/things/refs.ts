/**
 * Loads, in a handful of set-based queries, everything a segment of thing commands refers to:
 * places, containers, types with their fields, brands and each location's defaults. Types, fields
 * and brands are the registries of the locations' owner accounts. Reads go through RLS, so a
 * reference outside the actor's locations (or their accounts) is simply absent ("not found").
 */
import { and, getTableColumns, inArray, isNull, type Table } from "drizzle-orm";
import { idIn } from "../../commands/bulk.js";
import { type Tx, namedRows, sql, uuidArray } from "../../db/client.js";
import { brands, places, things, typeFields, types } from "../../db/schema/index.js";
import { effectiveFields, type EffectiveField } from "../types/fields.js";
import { chainsOf } from "../../db/tree.js";

/** The live things the ops name by `thingId` (what a meter or a template is made from), as a where clause. */
export const liveThingsOf = (ops: { args: { thingId: string } }[]) =>
  and(
    idIn(
      things.id,
      ops.map((o) => o.args.thingId),
    ),
    isNull(things.deletedAt),
  );

export interface Refs {
  places: Map<string, { id: string; locationId: string; isUnplaced: boolean; name: string }>;
  containers: Map<string, { id: string; locationId: string; isContainer: boolean; name: string | null; containerId: string | null }>;
  types: Map<string, typeof types.$inferSelect>;
  brands: Map<string, { id: string; accountId: string }>;
  unplacedByLocation: Map<string, string>;
  /** The owner account of each location asked for. */
  accountOf: Map<string, string>;
  /** The account's built-in "thing" type, by location. */
  defaultTypeByLocation: Map<string, string>;
  fieldsOf(typeId: string): Map<string, EffectiveField>;
}

type Maybe = string | null | undefined;

/** A row as to_jsonb() gives it, in the shape drizzle's select of `table` answers (keys, dates). */
function fromJson<T extends Table>(table: T, raw: Record<string, unknown>): T["$inferSelect"] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out;
}

/**
 * Each location's Unplaced place and owner account, and the types and live fields of those
 * accounts, in one named statement: every thing command needs the three, and as three queries they
 * were three round trips (and three plannings under RLS) of each REST write.
 */
async function registryOf(tx: Tx, locationIds: string[]) {
  const [row] = await namedRows<{
    unplaced: { id: string; locationId: string; accountId: string }[];
    types: Record<string, unknown>[];
    fields: Record<string, unknown>[];
  }>(
    tx,
    "thing_refs_registry",
    sql`WITH accounts AS (SELECT l.account_id FROM locations l WHERE l.id = ANY(${uuidArray(locationIds)}))
        SELECT
          (SELECT coalesce(jsonb_agg(jsonb_build_object('id', p.id, 'locationId', p.location_id, 'accountId', l.account_id)), '[]')
           FROM places p JOIN locations l ON l.id = p.location_id
           WHERE p.location_id = ANY(${uuidArray(locationIds)}) AND p.is_unplaced) AS unplaced,
          (SELECT coalesce(jsonb_agg(to_jsonb(t)), '[]') FROM types t
           WHERE t.account_id IN (SELECT account_id FROM accounts) AND t.deleted_at IS NULL) AS types,
          (SELECT coalesce(jsonb_agg(to_jsonb(f)), '[]') FROM type_fields f
           WHERE f.account_id IN (SELECT account_id FROM accounts) AND f.archived_at IS NULL AND f.deleted_at IS NULL) AS fields`,
  );
  return {
    unplacedRows: row!.unplaced,
    typeRows: row!.types.map((t) => fromJson(types, t)),
    fieldRows: row!.fields.map((f) => fromJson(typeFields, f)),
  };
}
const uniq = (xs: (string | null | undefined)[]) => [...new Set(xs.filter((x): x is string => !!x))];

export async function loadRefs(tx: Tx, want: { locationIds: string[]; placeIds?: Maybe[]; containerIds?: Maybe[]; brandIds?: Maybe[] }): Promise<Refs> {
  const locationIds = uniq(want.locationIds);
  const placeIds = uniq(want.placeIds ?? []);
  const containerIds = uniq(want.containerIds ?? []);
  const brandIds = uniq(want.brandIds ?? []);
  const [placeRows, registry, containerRows, brandRows] = await Promise.all([
    placeIds.length
      ? tx
          .select({ id: places.id, locationId: places.locationId, isUnplaced: places.isUnplaced, name: places.name })
          .from(places)
          .where(and(idIn(places.id, placeIds), isNull(places.deletedAt)))
      : [],
    registryOf(tx, locationIds),
    containerIds.length
      ? tx
          .select({ id: things.id, locationId: things.locationId, isContainer: things.isContainer, name: things.name, containerId: things.containerId })
          .from(things)
          .where(and(idIn(things.id, containerIds), isNull(things.deletedAt)))
      : [],
    brandIds.length
      ? tx
          .select({ id: brands.id, accountId: brands.accountId })
          .from(brands)
          .where(and(inArray(brands.id, brandIds), isNull(brands.deletedAt)))
      : [],
  ]);
  const { unplacedRows, typeRows, fieldRows } = registry;
  const typesById = new Map(typeRows.map((t) => [t.id, t]));
  const fieldsByType = new Map<string, (typeof fieldRows)[number][]>();
  for (const f of fieldRows) {
    if (!f.typeId) continue;
    const list = fieldsByType.get(f.typeId) ?? [];
    list.push(f);
    fieldsByType.set(f.typeId, list);
  }
  const accountOf = new Map(unplacedRows.map((p) => [p.locationId, p.accountId]));
  const thingTypeByAccount = new Map(typeRows.filter((t) => t.builtinKey === "thing").map((t) => [t.accountId, t.id]));
  const defaultTypeByLocation = new Map<string, string>();
  for (const [loc, account] of accountOf) {
    const id = thingTypeByAccount.get(account);
    if (id) defaultTypeByLocation.set(loc, id);
  }
  const cache = new Map<string, Map<string, EffectiveField>>();
  return {
    places: new Map(placeRows.map((p) => [p.id, p])),
    containers: new Map(containerRows.map((c) => [c.id, c])),
    types: typesById,
    brands: new Map(brandRows.map((b) => [b.id, b])),
    unplacedByLocation: new Map(unplacedRows.map((p) => [p.locationId, p.id])),
    accountOf,
    defaultTypeByLocation,
    fieldsOf(typeId) {
      let f = cache.get(typeId);
      if (!f) {
        f = effectiveFields(typeId, typesById, fieldsByType);
        cache.set(typeId, f);
      }
      return f;
    },
  };
}

/**
 * Ancestor containers of each given container (itself included), for cycle checks: a thing may
 * not go into itself or into anything inside it.
 */
export const containerAncestors = (tx: Tx, containerIds: string[]): Promise<Map<string, Set<string>>> => chainsOf(tx, "things", containerIds);
