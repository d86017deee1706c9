/** Queues a registry op in the outbox (apart from registry-ops.ts, which optimistic apply imports). */
import type { Op } from "../../sync/ops.js";
import type { InventoryDb } from "../db/database.js";
import { enqueue } from "./outbox.js";
import type { RegistryOpDraft } from "./registry-ops.js";

/** Queues a registry op, made through a location the person acts in: its owner account gets the change. */
export function enqueueRegistry(db: InventoryDb, draft: RegistryOpDraft): Promise<Op> {
  return enqueue(db, draft);
}
