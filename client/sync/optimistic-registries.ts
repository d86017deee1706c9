/**
 * Optimistic apply of the registry ops (optimistic.ts does things, places and the inbox): the
 * editor shows a new type or field, a rename or an archive at once, offline too. Registry rows
 * belong to the owner account, so an op's rows get the account of the location it was made
 * through. Pure functions, like optimistic.ts.
 */
import type { BrandRow, PlaceKindRow, SyncedTableName, TagRow, TemplateRow, ThingRow, TypeFieldRow, TypeRow } from "../db/rows.js";
import { isRegistryOp, type RegistryOp } from "./registry-ops.js";

/** A row as a screen sees it (as optimistic.ts's View, not imported: optimistic.ts imports this file). */
export type View<T> = T & { pending?: boolean };

export interface RegistryState {
  types: Map<string, View<TypeRow>>;
  typeFields: Map<string, View<TypeFieldRow>>;
  placeKinds: Map<string, View<PlaceKindRow>>;
  brands: Map<string, View<BrandRow>>;
  tags: Map<string, View<TagRow>>;
  templates: Map<string, View<TemplateRow>>;
}

export interface RegistryRows {
  types?: TypeRow[];
  typeFields?: TypeFieldRow[];
  placeKinds?: PlaceKindRow[];
  brands?: BrandRow[];
  tags?: TagRow[];
  templates?: TemplateRow[];
}

const stamps = (op: RegistryOp) => ({ rowVersion: 0, createdAt: op.at, updatedAt: op.at, deletedAt: null, pending: true as const });

function edit<T extends object>(map: Map<string, View<T>>, id: string, change: (row: View<T>) => T): void {
  const row = map.get(id);
  if (row) map.set(id, { ...change(row), pending: true });
}

/** A patch without the keys it leaves alone. */
function defined<T extends object>(patch: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}

const archivedAt = (archived: boolean | undefined, was: string | null, at: string) => (archived === undefined ? was : archived ? (was ?? at) : null);

/**
 * Applies one registry op. `accountOf` names the owner account of a location; `things` finds the
 * thing a template is saved from (its type and values). An op through a location the device does
 * not know is skipped: the server decides.
 */
export function applyRegistryOp(
  state: RegistryState,
  op: RegistryOp,
  accountOf: (locationId: string) => string | undefined,
  things: (id: string) => ThingRow | undefined = () => undefined,
): void {
  const accountId = accountOf(op.locationId);
  switch (op.name) {
    case "type.create": {
      if (!accountId) return;
      const a = op.args;
      state.types.set(a.id, {
        id: a.id,
        accountId,
        parentId: a.parentId ?? null,
        groupIds: a.groupIds ?? [],
        isGroup: a.isGroup ?? false,
        icon: a.icon ?? "thing",
        name: a.name,
        builtinKey: null,
        containerByDefault: a.containerByDefault ?? false,
        archivedAt: null,
        ...stamps(op),
      });
      return;
    }
    case "type.update": {
      const { archived, ...rest } = op.args.patch;
      edit(state.types, op.args.id, (t) => ({ ...t, ...defined(rest), archivedAt: archivedAt(archived, t.archivedAt, op.at), updatedAt: op.at }));
      return;
    }
    case "type_field.create": {
      if (!accountId) return;
      const a = op.args;
      state.typeFields.set(a.id, {
        id: a.id,
        accountId,
        typeId: "typeId" in a ? a.typeId : null,
        placeKindId: "placeKindId" in a ? a.placeKindId : null,
        key: a.key,
        label: a.label,
        labelKey: null,
        kind: a.kind,
        unit: a.unit ?? null,
        options: a.options ?? null,
        repeatable: a.repeatable ?? false,
        required: a.required ?? false,
        secret: a.secret ?? false,
        sort: a.sort ?? 0,
        archivedAt: null,
        ...stamps(op),
      });
      return;
    }
    case "type_field.update":
      edit(state.typeFields, op.args.id, (f) => ({ ...f, ...defined(op.args.patch), updatedAt: op.at }));
      return;
    case "type_field.archive":
      edit(state.typeFields, op.args.id, (f) => ({ ...f, archivedAt: f.archivedAt ?? op.at, updatedAt: op.at }));
      return;
    case "place_kind.create":
      if (!accountId) return;
      state.placeKinds.set(op.args.id, {
        id: op.args.id,
        accountId,
        name: op.args.name,
        icon: op.args.icon ?? "place",
        builtinKey: null,
        archivedAt: null,
        ...stamps(op),
      });
      return;
    case "place_kind.update": {
      const { archived, ...rest } = op.args.patch;
      edit(state.placeKinds, op.args.id, (k) => ({ ...k, ...defined(rest), archivedAt: archivedAt(archived, k.archivedAt, op.at), updatedAt: op.at }));
      return;
    }
    case "brand.create":
      if (!accountId) return;
      state.brands.set(op.args.id, { id: op.args.id, accountId, name: op.args.name, ...stamps(op) });
      return;
    case "tag.create":
      if (!accountId) return;
      state.tags.set(op.args.id, { id: op.args.id, accountId, name: op.args.name, colour: op.args.colour ?? null, ...stamps(op) });
      return;
    case "template.create": {
      const thing = things(op.args.thingId);
      if (!accountId || !thing?.typeId) return;
      state.templates.set(op.args.id, {
        id: op.args.id,
        accountId,
        name: op.args.name,
        typeId: thing.typeId,
        // The server keeps no secret value in a template; the device never has them anyway.
        payload: { fields: thing.fields },
        locationIds: op.args.locationIds,
        ...stamps(op),
      });
      return;
    }
    case "template.update":
      edit(state.templates, op.args.id, (t) => ({ ...t, ...defined(op.args.patch), updatedAt: op.at }));
      return;
    case "template.delete":
      state.templates.delete(op.args.id);
      return;
  }
}

/** Replays the outbox's registry ops (in push order) over the server's registry rows. */
export function overlayRegistries(
  server: RegistryRows,
  ops: readonly { name: string }[],
  accountOf: (locationId: string) => string | undefined,
  things?: (id: string) => ThingRow | undefined,
): RegistryState {
  const state: RegistryState = {
    types: new Map((server.types ?? []).map((r) => [r.id, r])),
    typeFields: new Map((server.typeFields ?? []).map((r) => [r.id, r])),
    placeKinds: new Map((server.placeKinds ?? []).map((r) => [r.id, r])),
    brands: new Map((server.brands ?? []).map((r) => [r.id, r])),
    tags: new Map((server.tags ?? []).map((r) => [r.id, r])),
    templates: new Map((server.templates ?? []).map((r) => [r.id, r])),
  };
  for (const op of ops) if (isRegistryOp(op)) applyRegistryOp(state, op, accountOf, things);
  return state;
}

/** Shapes on which a registry op's effect shows up (and so where its txid arrives); undefined for other ops. */
export function registryShapesOf(op: { name: string }): SyncedTableName[] | undefined {
  if (!isRegistryOp(op)) return undefined;
  switch (op.name) {
    case "type.create":
    case "type.update":
      return ["types"];
    case "type_field.create":
    case "type_field.update":
    case "type_field.archive":
      return ["type_fields"];
    case "place_kind.create":
    case "place_kind.update":
      return ["place_kinds"];
    case "brand.create":
      return ["brands"];
    case "tag.create":
      return ["tags"];
    case "template.create":
    case "template.update":
    case "template.delete":
      return ["templates"];
  }
}
