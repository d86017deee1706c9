/**
 * Re-applying a dropped op (sync/SPEC.md DR5): the server kept the whole op in the sync_drop item;
 * the device queues it again as a new op (new id) and resolves the item. An edit that lost a race
 * (`stale`) is re-based on the version this device now shows, which the person has just seen: if
 * someone changed the thing yet again in the meantime, it is dropped again rather than
 * overwriting a change nobody here has seen.
 */
import { isOpName } from "../../sync/ops.js";
import type { InventoryDb } from "../db/database.js";
import type { InboxRow } from "../db/rows.js";
import { enqueue, type OpDraft } from "./outbox.js";

export async function reapply(db: InventoryDb, item: InboxRow, currentVersion: number | undefined): Promise<boolean> {
  const op = item.payload.syncDrop?.op;
  if (!op || !isOpName(op.name)) return false;
  const draft = {
    name: op.name,
    locationId: op.locationId,
    args: op.args,
    ...(op.baseVersion !== undefined && currentVersion !== undefined && currentVersion > 0 ? { baseVersion: currentVersion } : {}),
  } as OpDraft;
  await enqueue(db, draft);
  await enqueue(db, { name: "inbox.dismiss", locationId: item.locationId, args: { id: item.id } });
  return true;
}
