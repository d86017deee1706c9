/**
 * The device's database (IndexedDB through Dexie), one per signed-in user so that two people on
 * one device never see each other's data. Indexes are only what the screens query: every index
 * slows the first sync's writes (measured on IndexedDB before the app was built): places by
 * location; things by location and name in one compound index, which also answers "the things of
 * a location" (Dexie reads its first part as a virtual `locationId` index) and lets the things list
 * read the first page by name instead of every row. Search and place filters read the location's
 * things and test them in memory (client/ui/search/).
 */
import { Dexie, type EntityTable } from "dexie";
import type { Op } from "../../sync/ops.js";
import {
  thingNameKey,
  type BoxCheckRow,
  type BrandRow,
  type CodeRow,
  type ContactRow,
  type LoanRow,
  type MoveBoxRow,
  type MoveRow,
  type InboxRow,
  type LocationRow,
  type MembershipRow,
  type MeterRow,
  type PlaceKindRow,
  type PlaceRow,
  type ReadingRow,
  type TagRow,
  type TemplateRow,
  type ThingRow,
  type TypeFieldRow,
  type TypeRow,
} from "./rows.js";

/** One op waiting in the outbox. `seq` is push order. */
export interface OutboxEntry {
  seq?: number;
  op: Op;
  /**
   * `pending`: not accepted by the server yet. `applied`: accepted; the optimistic copy stays until
   * the op's txid shows up on a shape (sync/SPEC.md PU7). `rejected`: the server could not read
   * it (a bug, not a conflict); kept so the person sees it, never pushed again.
   */
  state: "pending" | "applied" | "rejected";
  txid?: string;
  /** When the server accepted it (ms), for the safety net that retires entries whose txid was missed. */
  appliedAt?: number;
  /** Photos taken with this op, uploaded before the op is pushed. */
  blobIds: string[];
  error?: string;
}

/** A photo taken on this device; kept after upload so it shows with no network. */
export interface BlobEntry {
  /** The file id, made on the device and given to the server on upload. */
  id: string;
  locationId: string;
  thingId: string | null;
  blob: Blob;
  state: "local" | "uploaded" | "failed";
  error?: string;
  createdAt: string;
}

export type PhotoSize = "thumb" | "full";

/** A photo seen on this device, kept for offline viewing within a budget (photo-cache.ts). */
export interface CachedPhoto {
  /** `${fileId}:${size}`. */
  key: string;
  fileId: string;
  size: PhotoSize;
  blob: Blob;
  bytes: number;
  /** When a screen last showed it (ms): the least recent leaves first. */
  usedAt: number;
}

export interface MetaEntry {
  key: string;
  value: unknown;
}

export class InventoryDb extends Dexie {
  locations!: EntityTable<LocationRow, "id">;
  memberships!: EntityTable<MembershipRow, "id">;
  places!: EntityTable<PlaceRow, "id">;
  types!: EntityTable<TypeRow, "id">;
  type_fields!: EntityTable<TypeFieldRow, "id">;
  place_kinds!: EntityTable<PlaceKindRow, "id">;
  brands!: EntityTable<BrandRow, "id">;
  tags!: EntityTable<TagRow, "id">;
  templates!: EntityTable<TemplateRow, "id">;
  things!: EntityTable<ThingRow, "id">;
  inbox!: EntityTable<InboxRow, "id">;
  meters!: EntityTable<MeterRow, "id">;
  readings!: EntityTable<ReadingRow, "id">;
  box_checks!: EntityTable<BoxCheckRow, "id">;
  codes!: EntityTable<CodeRow, "id">;
  moves!: EntityTable<MoveRow, "id">;
  move_boxes!: EntityTable<MoveBoxRow, "id">;
  contacts!: EntityTable<ContactRow, "id">;
  loans!: EntityTable<LoanRow, "id">;
  outbox!: EntityTable<OutboxEntry, "seq">;
  blobs!: EntityTable<BlobEntry, "id">;
  photo_cache!: EntityTable<CachedPhoto, "key">;
  meta!: EntityTable<MetaEntry, "key">;

  constructor(name: string) {
    super(name);
    this.version(1).stores({
      locations: "id",
      memberships: "id",
      places: "id, locationId",
      types: "id",
      things: "id, locationId",
      inbox: "id, locationId",
      outbox: "++seq",
      blobs: "id",
      meta: "key",
    });
    // Things keyed for the list by name (version 1 had `locationId` alone): a row without
    // `nameKey` would be missing from the index, so the upgrade sets it on every stored thing.
    this.version(2)
      .stores({ things: "id, [locationId+nameKey]" })
      .upgrade((tx) =>
        tx
          .table<ThingRow, string>("things")
          .toCollection()
          .modify((th) => {
            th.nameKey = thingNameKey(th.name);
          }),
      );
    // The registries' shapes (types already synced): small, read whole and filtered by account.
    this.version(3).stores({ type_fields: "id", place_kinds: "id", brands: "id", tags: "id", templates: "id" });
    // Field work: a thing's meters, a meter's readings, a box's checks, and codes by their text
    // (scanning resolves offline against this table and the things' and places' own codes).
    this.version(4).stores({ meters: "id, thingId", readings: "id, meterId", box_checks: "id, containerId", codes: "id, code" });
    // Moves and loans: a move's boxes by move and by the container scanned; a thing's loans.
    this.version(5).stores({ moves: "id, locationId", move_boxes: "id, moveId, containerId", contacts: "id", loans: "id, thingId, locationId" });
    // Photos seen here, kept for offline viewing within a budget (photo-cache.ts), least recently used first out.
    this.version(6).stores({ photo_cache: "key, usedAt" });
  }
}

export const userDbName = (userId: string) => `inventory-${userId}`;

const open = new Map<string, InventoryDb>();

/** The database of one user (the same instance for the whole page). */
export function userDb(userId: string): InventoryDb {
  let db = open.get(userId);
  if (!db) open.set(userId, (db = new InventoryDb(userDbName(userId))));
  return db;
}

/** Deletes a user's local data (sign-out). */
export async function deleteUserDb(userId: string): Promise<void> {
  const db = userDb(userId);
  open.delete(userId);
  db.close();
  await Dexie.delete(userDbName(userId));
}

export async function getMeta<T>(db: InventoryDb, key: string): Promise<T | undefined> {
  return (await db.meta.get(key))?.value as T | undefined;
}

export async function setMeta(db: InventoryDb, key: string, value: unknown): Promise<void> {
  await db.meta.put({ key, value });
}
