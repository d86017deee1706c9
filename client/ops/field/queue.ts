/**
 * What the screens call to queue the field ops (boxcheck.record.ts, code.claim.ts). They sit beside the op files, not in them: queueing goes
 * through the outbox, whose checks replay every op through the op table (client/ops/index.ts), so
 * an op file that imported the outbox would be imported by what it imports.
 */
import { v7 as uuidv7 } from "uuid";
import type { InventoryDb } from "../../db/database.js";
import { enqueue } from "../../sync/outbox.js";
import type { BoxFindings } from "./boxcheck.record.js";
import type { CodeKind } from "../../../shared/codes.js";

/** Queues a check of one box; the id is made here so a retried push is recorded once. */
export async function recordBoxCheck(db: InventoryDb, locationId: string, containerId: string, findings: BoxFindings): Promise<string> {
  const id = uuidv7();
  await enqueue(db, { name: "boxcheck.record", locationId, args: { id, containerId, at: new Date().toISOString(), ...findings } });
  return id;
}

/** Queues a claim of a printed label for a thing or a place. */
export async function claimCode(db: InventoryDb, locationId: string, code: string, kind: CodeKind, id: string): Promise<void> {
  await enqueue(db, { name: "code.claim", locationId, args: { code, kind, id } });
}
