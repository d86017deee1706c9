/**
 * The owner account's registries as the screens of one location see them: types and their fields,
 * place kinds, brands, tags and the templates offered here, from Dexie with this device's waiting
 * registry ops on top (optimistic-registries.ts). Registries are shared by every location of the
 * account, so the filter is `accountId === location.accountId`, as for types in data.ts.
 */
import { effectiveFields as sharedEffectiveFields, type FieldVia } from "../../shared/fields.js";
import type { InventoryDb } from "../db/database.js";
import type { BrandRow, PlaceKindRow, TagRow, TemplateRow, ThingRow, TypeFieldRow, TypeRow } from "../db/rows.js";
import { overlayRegistries, type View } from "../sync/optimistic-registries.js";
import { overlay } from "../sync/optimistic.js";
import { registryOps } from "../sync/registry-ops.js";
import { useLive } from "./data.js";

export type Via = FieldVia;
export interface EffectiveField {
  field: View<TypeFieldRow>;
  via: Via;
  /** The type that defines it (the spec's `source.typeId`). */
  sourceId: string;
}

/** Fields in the order the editor and the forms show them: by `sort`, then by label. */
export const byFieldOrder = (a: Pick<TypeFieldRow, "sort" | "label" | "key">, b: Pick<TypeFieldRow, "sort" | "label" | "key">) =>
  a.sort - b.sort || (a.label ?? a.key).localeCompare(b.label ?? b.key);

/**
 * The fields a thing of `typeId` has: its own, then its parents' (`inherited`), then its groups'
 * (`group`); a key defined closer to the type wins (shared/fields.ts, as the server). Archived
 * fields are left out unless `withArchived`.
 */
export function effectiveFields(
  typeId: string | null | undefined,
  types: ReadonlyMap<string, Pick<TypeRow, "id" | "parentId" | "groupIds">>,
  fields: readonly View<TypeFieldRow>[],
  withArchived = false,
): EffectiveField[] {
  if (!typeId) return [];
  const byType = new Map<string, View<TypeFieldRow>[]>();
  for (const f of fields) {
    if (!f.typeId || f.deletedAt || (f.archivedAt && !withArchived)) continue;
    byType.set(f.typeId, [...(byType.get(f.typeId) ?? []), f]);
  }
  return [...sharedEffectiveFields(typeId, types, byType).values()]
    .map(({ field, via, ownerId }) => ({ field, via, sourceId: ownerId }))
    .sort((a, b) => byFieldOrder(a.field, b.field));
}

/** The fields of a place kind (no inheritance). */
export function placeKindFields(kindId: string, fields: readonly View<TypeFieldRow>[], withArchived = false): View<TypeFieldRow>[] {
  return fields.filter((f) => f.placeKindId === kindId && !f.deletedAt && (withArchived || !f.archivedAt)).sort(byFieldOrder);
}

export interface Registries {
  accountId: string | undefined;
  types: View<TypeRow>[];
  typesById: Map<string, View<TypeRow>>;
  fields: View<TypeFieldRow>[];
  placeKinds: View<PlaceKindRow>[];
  brands: View<BrandRow>[];
  tags: View<TagRow>[];
  /** Every template of the account; `offered` are those listed for this location. */
  templates: View<TemplateRow>[];
  offered: View<TemplateRow>[];
}

/** The registries of the owner account of `locationId`, with this device's waiting ops applied. */
export async function readRegistries(db: InventoryDb, locationId: string): Promise<Registries> {
  const [locations, types, typeFields, placeKinds, brands, tags, templates, outbox] = await Promise.all([
    db.locations.toArray(),
    db.types.toArray(),
    db.type_fields.toArray(),
    db.place_kinds.toArray(),
    db.brands.toArray(),
    db.tags.toArray(),
    db.templates.toArray(),
    db.outbox.orderBy("seq").toArray(),
  ]);
  const accountOf = new Map(locations.map((l) => [l.id, l.accountId]));
  const accountId = accountOf.get(locationId);
  const ops = outbox.filter((e) => e.state !== "rejected").map((e) => e.op);
  // A template is saved from a thing (maybe one made on this device): its type and values come from it.
  const thingIds = new Set(registryOps(ops).flatMap((op) => (op.name === "template.create" ? [op.args.thingId] : [])));
  const things = thingIds.size ? await db.things.bulkGet([...thingIds]) : [];
  const localThings = overlay({ things: things.filter((t): t is ThingRow => !!t) }, ops).things;
  const state = overlayRegistries(
    { types, typeFields, placeKinds, brands, tags, templates },
    ops,
    (id) => accountOf.get(id),
    (id) => localThings.get(id),
  );
  const mine = <T extends { accountId: string; deletedAt: string | null }>(rows: Iterable<T>) =>
    [...rows].filter((r) => r.accountId === accountId && !r.deletedAt);
  const allTemplates = mine(state.templates.values()).sort((a, b) => a.name.localeCompare(b.name));
  const mineTypes = mine(state.types.values());
  return {
    accountId,
    types: mineTypes,
    typesById: new Map(mineTypes.map((t) => [t.id, t])),
    fields: mine(state.typeFields.values()),
    placeKinds: mine(state.placeKinds.values()),
    brands: mine(state.brands.values()).sort((a, b) => a.name.localeCompare(b.name)),
    tags: mine(state.tags.values()).sort((a, b) => a.name.localeCompare(b.name)),
    templates: allTemplates,
    offered: allTemplates.filter((t) => t.locationIds.includes(locationId)),
  };
}

export function useRegistries(db: InventoryDb, locationId: string): Registries | undefined {
  return useLive(() => readRegistries(db, locationId), [db, locationId]);
}
