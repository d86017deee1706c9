/**
 * Moves as the device shows them: the server's rows (shapes `moves`, `move_boxes`) with this
 * device's waiting ops replayed on top (a mover scans boxes in a truck with no signal). Each op,
 * how it is queued and how it shows, is in its file (client/ops/moves/).
 */
import { classifyScan, normalizeCode } from "../../shared/codes.js";
import type { Op } from "../../sync/ops.js";
import type { InventoryDb } from "../db/database.js";
import type { MoveBoxRow } from "../db/rows.js";
import { applierOf } from "../ops/index.js";
import { boxKey } from "../ops/moves/boxes.js";
import type { View } from "../ops/rows.js";
import type { MoveState } from "../ops/views.js";
import { resolveCodeLocally } from "./field-ops.js";

export type { MoveState } from "../ops/views.js";

/** One waiting op on top of the state (ops of other kinds are ignored). */
export function applyMoveOp(state: MoveState, op: Op): void {
  applierOf(op, "moves")?.(state, op);
}

/** A location's moves and their boxes as this device shows them. */
export async function readMoves(db: InventoryDb, locationId: string): Promise<MoveState> {
  const [moves, outbox] = await Promise.all([db.moves.where("locationId").equals(locationId).toArray(), db.outbox.orderBy("seq").toArray()]);
  const boxes = await db.move_boxes
    .where("moveId")
    .anyOf(moves.map((m) => m.id))
    .toArray();
  const state: MoveState = {
    moves: new Map(moves.filter((m) => !m.deletedAt).map((m) => [m.id, m])),
    boxes: new Map(boxes.filter((b) => !b.deletedAt).map((b) => [boxKey(b.moveId, b.containerId), b])),
  };
  for (const e of outbox) if (e.state !== "rejected" && e.op.locationId === locationId) applyMoveOp(state, e.op);
  return state;
}

export const boxesOf = (state: MoveState, moveId: string): View<MoveBoxRow>[] =>
  [...state.boxes.values()].filter((b) => b.moveId === moveId).sort((a, b) => a.number - b.number);

/** The box of this move a typed or scanned code names, read on the device (no network needed). */
export async function boxByCode(db: InventoryDb, boxes: MoveBoxRow[], text: string): Promise<MoveBoxRow | null> {
  const read = classifyScan(text.trim());
  const code = read.type === "code" ? read.code : normalizeCode(text);
  if (!code) return null;
  const hit = await resolveCodeLocally(db, code);
  const id = hit.outcome === "open" && hit.target.kind === "thing" ? hit.target.id : null;
  return (id && boxes.find((b) => b.containerId === id)) || null;
}
