/**
 * Rows of the synced tables as they arrive on the shape streams (sync/SPEC.md SH5), after the
 * Electric client's parser (int4 -> number, bool -> boolean, jsonb -> object; timestamps, numerics
 * and uuids stay strings) and its snake_case -> camelCase column mapper. The server decides the
 * columns (server/sync/shapes/definitions.ts); these types name the ones the app reads.
 */
import type { Role } from "../../shared/roles.js";

interface Synced {
  id: string;
  rowVersion: number;
  createdAt: string;
  updatedAt: string;
  deletedAt?: string | null;
}

export interface LocationRow extends Synced {
  name: string;
  isPersonal: boolean;
  requiresTwoFactor: boolean;
  viewersSeeMoney: boolean;
}

/** Only the signed-in user's own memberships are in the shape: one per location, with the role. */
export interface MembershipRow extends Synced {
  locationId: string;
  userId: string;
  role: Role;
}

export interface PlaceRow extends Synced {
  locationId: string;
  parentId: string | null;
  kindId: string | null;
  name: string;
  isUnplaced: boolean;
  shortCode: string | null;
}

export interface TypeRow extends Synced {
  locationId: string;
  name: string | null;
  builtinKey: string | null;
  icon: string;
  isGroup: boolean;
  containerByDefault: boolean;
}

export interface ThingRow extends Synced {
  locationId: string;
  placeId: string | null;
  containerId: string | null;
  typeId: string | null;
  name: string | null;
  description: string | null;
  /** Decimal string. */
  quantity: string;
  lifecycle: "draft" | "active" | "in_repair" | "ended";
  condition: string | null;
  brandId: string | null;
  model: string | null;
  colour: string | null;
  serial: string | null;
  fields: Record<string, unknown>;
  shortCode: string | null;
  isContainer: boolean;
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
  kind: "draft" | "reading" | "label_claim" | "currency" | "duplicate" | "receipt" | "sync_drop";
  status: string;
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

export interface SyncDropPayload {
  op: { id: string; name: string; locationId: string; args: unknown; baseVersion?: number; at: string };
  reason: string;
  message?: string;
  entity?: { type: string; id: string; name: string };
  by?: { displayName: string };
}

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
export const SYNCED_TABLES: readonly SyncedTableName[] = ["locations", "memberships", "places", "types", "things", "inbox"];
