/**
 * What the screens call to queue the move and box ops (move.*.ts, box.*.ts). They sit beside the op files, not in them: queueing goes
 * through the outbox, whose checks replay every op through the op table (client/ops/index.ts), so
 * an op file that imported the outbox would be imported by what it imports.
 */
import { v7 as uuidv7 } from "uuid";
import type { DestinationInput, MoveUpdateArgs } from "../../../shared/moves.js";
import type { Op } from "../../../sync/ops.js";
import type { InventoryDb } from "../../db/database.js";
import type { MoveBoxRow, MoveRow } from "../../db/rows.js";
import { enqueue } from "../../sync/outbox.js";
import { type ScanMode, moveBase } from "./boxes.js";

/** Queues box.load, box.unload or box.unpack, stamped when the box was scanned. */
export function queueScan(db: InventoryDb, move: Pick<MoveRow, "id" | "locationId">, containerId: string, mode: ScanMode): Promise<Op> {
  return enqueue(db, { name: `box.${mode}`, locationId: move.locationId, args: { moveId: move.id, containerId, at: new Date().toISOString() } });
}

export function queueBoxAdd(db: InventoryDb, move: Pick<MoveRow, "id" | "locationId">, containerId: string, destination?: DestinationInput): Promise<Op> {
  return enqueue(db, {
    name: "box.add",
    locationId: move.locationId,
    args: { id: uuidv7(), moveId: move.id, containerId, at: new Date().toISOString(), ...(destination !== undefined ? { destination } : {}) },
  });
}

export function queueBoxRemove(db: InventoryDb, move: Pick<MoveRow, "id" | "locationId">, box: Pick<MoveBoxRow, "containerId" | "rowVersion">): Promise<Op> {
  return enqueue(db, { name: "box.remove", locationId: move.locationId, args: { moveId: move.id, containerId: box.containerId }, ...moveBase(box) });
}

export function queueBoxDestination(
  db: InventoryDb,
  move: Pick<MoveRow, "id" | "locationId">,
  box: Pick<MoveBoxRow, "containerId">,
  destination: DestinationInput,
): Promise<Op> {
  return enqueue(db, { name: "box.update", locationId: move.locationId, args: { moveId: move.id, containerId: box.containerId, destination } });
}

export async function queueMoveCreate(db: InventoryDb, locationId: string, name: string, toLocationId: string | null): Promise<string> {
  const id = uuidv7();
  await enqueue(db, { name: "move.create", locationId, args: { id, name, ...(toLocationId ? { toLocationId } : {}) } });
  return id;
}

export function queueMoveUpdate(db: InventoryDb, move: Pick<MoveRow, "id" | "locationId" | "rowVersion">, patch: MoveUpdateArgs["patch"]): Promise<Op> {
  return enqueue(db, { name: "move.update", locationId: move.locationId, args: { id: move.id, patch }, ...moveBase(move) });
}
