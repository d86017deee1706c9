/**
 * Optimistic apply of the registry ops (optimistic.ts does things, places and the inbox): the
 * editor shows a new type or field, a rename or an archive at once, offline too. Registry rows
 * belong to the owner account, so an op's rows get the account of the location it was made
 * through. Each op's own apply is in its file (client/ops/registries/, client/ops/templates/). Pure
 * functions, like optimistic.ts.
 */
import type { BrandRow, PlaceKindRow, TagRow, TemplateRow, ThingRow, TypeFieldRow, TypeRow } from "../db/rows.js";
import { applierOf } from "../ops/index.js";
import type { RegistryState } from "../ops/views.js";
import { isRegistryOp } from "./registry-ops.js";

export type { View } from "../ops/rows.js";

export type { RegistryState } from "../ops/views.js";

export interface RegistryRows {
  types?: TypeRow[];
  typeFields?: TypeFieldRow[];
  placeKinds?: PlaceKindRow[];
  brands?: BrandRow[];
  tags?: TagRow[];
  templates?: TemplateRow[];
}

/**
 * Replays the outbox's registry ops (in push order) over the server's registry rows. `accountOf`
 * names the owner account of a location; `things` finds the thing a template is saved from (its
 * type and values). An op through a location the device does not know is skipped: the server decides.
 */
export function overlayRegistries(
  server: RegistryRows,
  ops: readonly { name: string }[],
  accountOf: (locationId: string) => string | undefined,
  things: (id: string) => ThingRow | undefined = () => undefined,
): RegistryState {
  const state: RegistryState = {
    types: new Map((server.types ?? []).map((r) => [r.id, r])),
    typeFields: new Map((server.typeFields ?? []).map((r) => [r.id, r])),
    placeKinds: new Map((server.placeKinds ?? []).map((r) => [r.id, r])),
    brands: new Map((server.brands ?? []).map((r) => [r.id, r])),
    tags: new Map((server.tags ?? []).map((r) => [r.id, r])),
    templates: new Map((server.templates ?? []).map((r) => [r.id, r])),
  };
  for (const op of ops) if (isRegistryOp(op)) applierOf(op, "registries")?.(state, op, { accountOf, things });
  return state;
}
