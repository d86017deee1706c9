/**
 * Sync status as the person sees it (the sync screen and the badge in the header): kept in the
 * user's database so every tab shows what the one syncing tab knows.
 */
import type { SyncedTableName } from "../db/rows.js";
import { getMeta, setMeta, type InventoryDb } from "../db/database.js";

export interface ShapeProgress {
  /** Reached the server's present at least once: its rows can be trusted as complete. */
  upToDate: boolean;
  /** Rows received so far (first sync progress). */
  rows: number;
}

export interface SyncStatus {
  lastPushAt: string | null;
  lastPullAt: string | null;
  /** The current problem, if any: offline is not one (the header shows it separately). */
  error: { message: string; at: string } | null;
  /** Why pushing stopped until the person acts (sign in again, update the app). */
  blocked: "signed_out" | "mfa_required" | "too_old" | null;
  shapes: Partial<Record<SyncedTableName, ShapeProgress>>;
}

export const EMPTY_STATUS: SyncStatus = { lastPushAt: null, lastPullAt: null, error: null, blocked: null, shapes: {} };

const KEY = "status";

export async function readStatus(db: InventoryDb): Promise<SyncStatus> {
  return (await getMeta<SyncStatus>(db, KEY)) ?? EMPTY_STATUS;
}

/** Read-modify-write in one transaction: the pusher and the shape followers both write it. */
export async function updateStatus(db: InventoryDb, change: (s: SyncStatus) => SyncStatus): Promise<void> {
  await db.transaction("rw", db.meta, async () => {
    await setMeta(db, KEY, change(await readStatus(db)));
  });
}
