/**
 * Rows of the synced tables as they arrive on the shape streams (sync/SPEC.md SH5), after the
 * Electric client's parser (int4 -> number, bool -> boolean, jsonb -> object; timestamps, numerics
 * and uuids stay strings) and its snake_case -> camelCase column mapper. The server decides the
 * columns (server/sync/shapes/definitions.ts); these types name the ones the app reads.
 */
import type { InboxKind, InboxStatus, SyncDrop } from "../../shared/inbox.js";
import type { Location } from "../../shared/locations.js";
import type { Member } from "../../shared/members.js";
import type { Place } from "../../shared/places.js";
import type { ThingDetail, TypeRef } from "../../shared/things.js";
import type { PushOp } from "../../sync/protocol.js";
import type { ShapeName } from "../../sync/shapes.js";

interface Synced {
  id: string;
  rowVersion: number;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string | null;
}

/*
 * Fields (and enums) that shared/ already describes are taken from there; what only the rows have
 * (tombstones, decimal strings, ids the API shows as objects) is typed here.
 */

export type LocationRow = Synced & Pick<Location, "name" | "isPersonal" | "requiresTwoFactor" | "viewersSeeMoney">;

/** Only the signed-in user's own memberships are in the shape: one per location, with the role. */
export interface MembershipRow extends Synced, Pick<Member, "userId" | "role"> {
  locationId: string;
}

export type PlaceRow = Synced & Pick<Place, "locationId" | "parentId" | "kindId" | "name" | "isUnplaced" | "shortCode">;

export interface TypeRow extends Synced, Pick<TypeRef, "name" | "builtinKey" | "icon"> {
  locationId: string;
  isGroup: boolean;
  containerByDefault: boolean;
}

type ThingFields =
  | "locationId"
  | "placeId"
  | "containerId"
  | "name"
  | "description"
  | "lifecycle"
  | "condition"
  | "model"
  | "colour"
  | "serial"
  | "fields"
  | "shortCode"
  | "isContainer";

export interface ThingRow extends Synced, Pick<ThingDetail, ThingFields> {
  typeId: string | null;
  /** Decimal string (the API's summary gives a number). */
  quantity: string;
  brandId: string | null;
  coverFileId: string | null;
  createdBy: string | null;
  /**
   * Device only, set when the row is stored (client/sync/shapes.ts): `thingNameKey(name)`, the
   * order of the things list, indexed with `locationId` (client/db/database.ts).
   */
  nameKey?: string;
}

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

export interface InboxRow extends Synced {
  locationId: string;
  kind: InboxKind;
  status: InboxStatus;
  thingId: string | null;
  batchId: string;
  capturedAt: string;
  createdBy: string | null;
  payload: InboxPayload;
}

/** What the server keeps in an inbox item's payload (server/sync/drops.ts, server/modules/things/capture.ts). */
export interface InboxPayload {
  photos?: { fileId: string }[];
  placePath?: { id: string; name: string }[];
  syncDrop?: SyncDropPayload;
}

/** The shared `syncDrop`, whose op is the pushed op as the device sent it. */
export type SyncDropPayload = Omit<SyncDrop, "op"> & { op: PushOp };

/** Tables filled from shapes, by shape name (sync/shapes.ts SHAPE_NAMES that the app uses). */
export interface SyncedTables {
  locations: LocationRow;
  memberships: MembershipRow;
  places: PlaceRow;
  types: TypeRow;
  things: ThingRow;
  inbox: InboxRow;
}
export type SyncedTableName = keyof SyncedTables;
export const SYNCED_TABLES: readonly SyncedTableName[] = ["locations", "memberships", "places", "types", "things", "inbox"] satisfies readonly ShapeName[];
