/**
 * Rows of each named shape as a device receives them (sync/SPEC.md SH5): every column of the
 * shape's table, camelCased by the Electric client's column mapper, with its parser's types
 * (int4 -> number, bool -> boolean, jsonb -> object, arrays -> arrays; timestamps, numerics and
 * uuids stay strings). The server checks these against its tables at compile time
 * (server/sync/shapes/definitions.ts), and the app's tables take their row types from here
 * (client/db/rows.ts): a column added to a synced table fails the build until both sides know it.
 */
import type { FieldKind } from "../shared/fields.js";
import type { FieldStatus, InboxExtraction } from "../shared/extractions.js";
import type { BoxCheckSplit } from "../shared/box-checks.js";
import type { InboxClaim } from "../shared/codes.js";
import type { InboxKind, InboxStatus, SyncDrop } from "../shared/inbox.js";
import type { InboxCurrency, ReceiptPayload } from "../shared/receipts.js";
import type { InboxReading, MeterKind, ReadingReason, ReadingStatus } from "../shared/meters.js";
import type { LoanCondition, LoanDirection } from "../shared/loans.js";
import type { BoxState, MoveStatus } from "../shared/moves.js";
import type { Role } from "../shared/roles.js";
import type { Condition, Lifecycle } from "../shared/things.js";
import type { PushOp } from "./protocol.js";
import type { ShapeName } from "./shapes.js";

/** The columns every synced table has (id, version counter, times, tombstone). */
export type SyncedRow = {
  id: string;
  rowVersion: number;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
};

/** Custom field values by key (a jsonb object). */
export type FieldValues = Record<string, unknown>;

/** The `syncDrop` of an inbox item, whose op is the pushed op as the device sent it. */
export type SyncDropPayload = Omit<SyncDrop, "op"> & { op: PushOp };

/** What an inbox item's payload holds, by kind (server/modules/inbox/drops.ts, server/modules/things/capture.ts). */
export type InboxPayload = {
  photos?: { fileId: string }[];
  placePath?: { id: string; name: string }[];
  syncDrop?: SyncDropPayload;
  /** A `reading` item: an implausible reading, or a nudge for a meter not read for too long (server/modules/meters/). */
  reading?: InboxReading;
  /** A `label_claim` item: a claim that met another claim of the same code (server/modules/codes/). */
  claim?: InboxClaim;
  /** A `duplicate` item: the item's thing looks like this other one (server/modules/duplicates/). */
  duplicate?: { otherId: string; reason: "serial" | "brand_model_place" };
  /** A `draft` (or `receipt`) item: the latest extraction of its thing, kept current by the pipeline (server/modules/extractions/). */
  extraction?: InboxExtraction;
  /** A `receipt` item: the purchase as read (server/modules/receipts/); amounts absent where money is hidden. */
  receipt?: ReceiptPayload;
  /** A `currency` item: the printed symbol and the codes it may mean, and the purchase it is about. */
  currency?: InboxCurrency;
  purchaseId?: string;
};

export type LocationShapeRow = SyncedRow & {
  accountId: string;
  name: string;
  isPersonal: boolean;
  requiresTwoFactor: boolean;
  viewersSeeMoney: boolean;
  /** The owner's secret-field policy: roles that may reveal a secret value. */
  secretRevealRoles: Role[];
  scopeVersion: number;
};

/** Only the signed-in person's own memberships are in the shape. */
export type MembershipShapeRow = SyncedRow & { locationId: string; userId: string; role: Role };

export type PlaceShapeRow = SyncedRow & {
  locationId: string;
  parentId: string | null;
  kindId: string | null;
  name: string;
  isUnplaced: boolean;
  shortCode: string | null;
  fields: FieldValues;
};

/** Registries belong to the owner account and are shared by its locations (`accountId`, not `locationId`). */
export type PlaceKindShapeRow = SyncedRow & { accountId: string; name: string | null; icon: string; builtinKey: string | null; archivedAt: string | null };

export type TypeShapeRow = SyncedRow & {
  accountId: string;
  parentId: string | null;
  groupIds: string[];
  isGroup: boolean;
  icon: string;
  /** Null for built-in types, named by `builtinKey`. */
  name: string | null;
  builtinKey: string | null;
  containerByDefault: boolean;
  archivedAt: string | null;
};

export type TypeFieldShapeRow = SyncedRow & {
  accountId: string;
  typeId: string | null;
  placeKindId: string | null;
  key: string;
  label: string | null;
  labelKey: string | null;
  kind: FieldKind;
  unit: string | null;
  options: string[] | null;
  repeatable: boolean;
  required: boolean;
  secret: boolean;
  sort: number;
  archivedAt: string | null;
};

export type BrandShapeRow = SyncedRow & { accountId: string; name: string };

export type TagShapeRow = SyncedRow & { accountId: string; name: string; colour: string | null };

export type TemplateShapeRow = SyncedRow & {
  accountId: string;
  name: string;
  typeId: string;
  /** The thing's values a new thing starts with (never secret values). */
  payload: FieldValues;
  locationIds: string[];
};

export type ThingShapeRow = SyncedRow & {
  locationId: string;
  placeId: string | null;
  containerId: string | null;
  typeId: string;
  name: string | null;
  description: string | null;
  /** A decimal string (numeric(14, 3)). */
  quantity: string;
  lifecycle: Lifecycle;
  condition: Condition | null;
  brandId: string | null;
  tagIds: string[];
  model: string | null;
  colour: string | null;
  serial: string | null;
  fields: FieldValues;
  /** What each field's value is known from, and the AI's suggestions waiting for a person. */
  fieldStatus: FieldStatus;
  shortCode: string | null;
  isContainer: boolean;
  coverFileId: string | null;
  /** The thing's photos in the order added; the cover is one of them. */
  photoFileIds: string[];
  lastSeenAt: string | null;
  missingSince: string | null;
  createdBy: string | null;
};

export type InboxShapeRow = SyncedRow & {
  locationId: string;
  kind: InboxKind;
  status: InboxStatus;
  thingId: string | null;
  batchId: string;
  capturedAt: string;
  createdBy: string | null;
  payload: InboxPayload;
  undoEventId: string | null;
  resolvedAt: string | null;
  resolvedBy: string | null;
};

export type MeterShapeRow = SyncedRow & {
  locationId: string;
  thingId: string;
  kind: MeterKind;
  unit: string;
  label: string | null;
  /** Decimal strings (numeric). */
  offset: string;
  maxPerDay: string | null;
  nudgeDays: number | null;
  nudgedFor: string | null;
  createdBy: string | null;
};

export type ReadingShapeRow = SyncedRow & {
  locationId: string;
  meterId: string;
  /** Decimal strings (numeric(18, 3)). */
  value: string;
  offset: string;
  takenAt: string;
  fileId: string | null;
  status: ReadingStatus;
  reason: ReadingReason | null;
  createdBy: string | null;
};

export type BoxCheckShapeRow = SyncedRow & {
  locationId: string;
  containerId: string;
  at: string;
  byUserId: string | null;
  seen: string[];
  notHere: string[];
  split: BoxCheckSplit[];
  movedIn: string[];
};

export type CodeShapeRow = SyncedRow & {
  locationId: string;
  code: string;
  thingId: string | null;
  placeId: string | null;
  sheetId: string | null;
  claimedAt: string | null;
  claimedBy: string | null;
};

export type MoveShapeRow = SyncedRow & {
  locationId: string;
  toLocationId: string | null;
  toLocationName: string | null;
  name: string;
  status: MoveStatus;
  createdBy: string | null;
  finishedAt: string | null;
};

export type MoveBoxShapeRow = SyncedRow & {
  locationId: string;
  moveId: string;
  containerId: string;
  number: number;
  state: BoxState;
  stateAt: string;
  destinationPlaceId: string | null;
  destinationName: string | null;
};

export type ContactShapeRow = SyncedRow & {
  accountId: string;
  name: string;
  createdBy: string | null;
};

export type LoanShapeRow = SyncedRow & {
  locationId: string;
  thingId: string;
  direction: LoanDirection;
  personUserId: string | null;
  contactId: string | null;
  personName: string;
  /** Decimal string (numeric(14, 3)). */
  quantity: string;
  splitFromThingId: string | null;
  startedAt: string;
  /** A date, `YYYY-MM-DD`. */
  dueOn: string | null;
  returnedAt: string | null;
  previousPlaceId: string | null;
  previousContainerId: string | null;
  returnPlaceId: string | null;
  returnContainerId: string | null;
  notes: string | null;
  conditionOut: LoanCondition[];
  conditionIn: LoanCondition[];
  overdueNotifiedAt: string | null;
  createdBy: string | null;
};

/** The row type of each named shape. */
export interface ShapeRows {
  locations: LocationShapeRow;
  memberships: MembershipShapeRow;
  places: PlaceShapeRow;
  place_kinds: PlaceKindShapeRow;
  types: TypeShapeRow;
  type_fields: TypeFieldShapeRow;
  things: ThingShapeRow;
  brands: BrandShapeRow;
  tags: TagShapeRow;
  templates: TemplateShapeRow;
  inbox: InboxShapeRow;
  meters: MeterShapeRow;
  readings: ReadingShapeRow;
  box_checks: BoxCheckShapeRow;
  codes: CodeShapeRow;
  moves: MoveShapeRow;
  move_boxes: MoveBoxShapeRow;
  contacts: ContactShapeRow;
  loans: LoanShapeRow;
}

export type ShapeRow<N extends ShapeName> = ShapeRows[N];
