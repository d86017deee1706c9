/**
 * The views the device keeps of the server's rows with its own outbox ops replayed on top: what
 * an op file's apply changes. They are types of rows and nothing else, so an op file and the sync
 * module that replays ops over a view both import them from here instead of from each other.
 */
import type { TemplateShapeRow } from "../../sync/shape-rows.js";
import type {
  BrandRow,
  ContactRow,
  InboxRow,
  LoanRow,
  MeterRow,
  MoveBoxRow,
  MoveRow,
  PlaceKindRow,
  PlaceRow,
  ReadingRow,
  TagRow,
  TemplateRow,
  ThingRow,
  TypeFieldRow,
  TypeRow,
} from "../db/rows.js";
import type { View } from "./rows.js";

/** Things, places, inbox items and the templates of the things screens (sync/optimistic.ts). */
export interface LocalState {
  things: Map<string, View<ThingRow>>;
  places: Map<string, View<PlaceRow>>;
  inbox: Map<string, View<InboxRow>>;
  /** Templates the device holds (a `templates` table, where the app keeps one): a new thing starts from one. */
  templates: Map<string, View<TemplateShapeRow>>;
  /** Locations where the person's own captures go straight in (capture-settings.ts): accepted as they arrive. */
  straightIn?: ReadonlySet<string>;
}

/** Types, fields, place kinds, brands, tags, templates (sync/optimistic-registries.ts). */
export interface RegistryState {
  types: Map<string, View<TypeRow>>;
  typeFields: Map<string, View<TypeFieldRow>>;
  placeKinds: Map<string, View<PlaceKindRow>>;
  brands: Map<string, View<BrandRow>>;
  tags: Map<string, View<TagRow>>;
  templates: Map<string, View<TemplateRow>>;
}

/** Meters and readings (sync/meter-overlay.ts). */
export interface MeterState {
  meters: Map<string, View<MeterRow>>;
  readings: Map<string, View<ReadingRow>>;
  /** The reading each open `reading` inbox item is about (nudges are about none), for reviews made on this device. */
  reviewed: Map<string, string>;
}

/** Loans and contacts (sync/loan-ops.ts). */
export interface LoanState {
  loans: Map<string, View<LoanRow>>;
  contacts: Map<string, View<ContactRow>>;
}

/** Moves and their boxes (sync/move-ops.ts). */
export interface MoveState {
  moves: Map<string, View<MoveRow>>;
  /** By `moveId/containerId`. */
  boxes: Map<string, View<MoveBoxRow>>;
}
