/**
 * Rows of the synced tables: the rows the shapes promise (sync/shape-rows.ts, checked against the
 * server's tables), plus what only the device keeps. The app reads them from Dexie.
 */
import type { ShapeRow } from "../../sync/shape-rows.js";
import type { ShapeName } from "../../sync/shapes.js";

export type { InboxPayload, SyncDropPayload } from "../../sync/shape-rows.js";

export type LocationRow = ShapeRow<"locations">;

/** Only the signed-in user's own memberships are in the shape: one per location, with the role. */
export type MembershipRow = ShapeRow<"memberships">;

export type PlaceRow = ShapeRow<"places">;

export type TypeRow = ShapeRow<"types">;

/** Registries belong to the owner account (`accountId`) and are shared by its locations. */
export type TypeFieldRow = ShapeRow<"type_fields">;
export type PlaceKindRow = ShapeRow<"place_kinds">;
export type BrandRow = ShapeRow<"brands">;
export type TagRow = ShapeRow<"tags">;
export type TemplateRow = ShapeRow<"templates">;

/** Field work (server/modules/meters/, box-checks/, codes/): by location, like things. */
export type MeterRow = ShapeRow<"meters">;
export type ReadingRow = ShapeRow<"readings">;
export type BoxCheckRow = ShapeRow<"box_checks">;
/** Every code handed out in a location: things' and places' (also on their rows) and printed labels'. */
export type CodeRow = ShapeRow<"codes">;

/** Moves and loans (server/modules/moves/, loans/): by location; contacts by owner account. */
export type MoveRow = ShapeRow<"moves">;
export type MoveBoxRow = ShapeRow<"move_boxes">;
export type ContactRow = ShapeRow<"contacts">;
export type LoanRow = ShapeRow<"loans">;

export type ThingRow = Omit<ShapeRow<"things">, "typeId"> & {
  /** Null only on a row this device made optimistically without naming a type (the server picks the default). */
  typeId: string | null;
  /**
   * Device only, set when the row is stored (client/sync/shapes.ts): `thingNameKey(name)`, the
   * order of the things list, indexed with `locationId` (client/db/database.ts).
   */
  nameKey?: string;
};

/**
 * How the things list orders names: trimmed, accents and case folded, unnamed first (as the
 * server's list, `lower(coalesce(name, ''))`). IndexedDB compares strings by code unit, so folding
 * here is what keeps "éclair" beside "eclair" and "Zebra" after "apple".
 */
export function thingNameKey(name: string | null | undefined): string {
  const s = (name ?? "").trim();
  // Most names are ASCII: skip the Unicode work for them (it runs for every row of a first sync).
  return (/[^ -~]/.test(s) ? s.normalize("NFD").replace(/\p{M}+/gu, "") : s).toLowerCase();
}

export type InboxRow = ShapeRow<"inbox">;

/** Tables filled from shapes, by shape name (sync/shapes.ts SHAPE_NAMES that the app uses). */
export interface SyncedTables {
  locations: LocationRow;
  memberships: MembershipRow;
  places: PlaceRow;
  types: TypeRow;
  type_fields: TypeFieldRow;
  place_kinds: PlaceKindRow;
  brands: BrandRow;
  tags: TagRow;
  templates: TemplateRow;
  things: ThingRow;
  inbox: InboxRow;
  meters: MeterRow;
  readings: ReadingRow;
  box_checks: BoxCheckRow;
  codes: CodeRow;
  moves: MoveRow;
  move_boxes: MoveBoxRow;
  contacts: ContactRow;
  loans: LoanRow;
}
export type SyncedTableName = keyof SyncedTables;
export const SYNCED_TABLES: readonly SyncedTableName[] = [
  "locations",
  "memberships",
  "places",
  "types",
  "type_fields",
  "place_kinds",
  "brands",
  "tags",
  "templates",
  "things",
  "inbox",
  "meters",
  "readings",
  "box_checks",
  "codes",
  "moves",
  "move_boxes",
  "contacts",
  "loans",
] satisfies readonly ShapeName[];
