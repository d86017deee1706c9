/**
 * Moves from the device: every change is an op in the outbox (a mover scans boxes in a truck with
 * no signal), and the screens show the server's rows (shapes `moves`, `move_boxes`) with this
 * device's waiting ops replayed on top, by the server's own rules (shared/moves.ts): the same scan
 * twice changes nothing, an unpacked box stays unpacked, a load older than the box's last change is
 * outrun by it. A box's number is a guess until the server's row arrives (it numbers boxes).
 */
import { v7 as uuidv7 } from "uuid";
import { classifyScan, normalizeCode } from "../../shared/codes.js";
import { boxTransition, SCAN_STATES, type DestinationInput, type MoveUpdateArgs } from "../../shared/moves.js";
import type { Op } from "../../sync/ops.js";
import type { InventoryDb } from "../db/database.js";
import type { MoveBoxRow, MoveRow } from "../db/rows.js";
import type { View } from "./optimistic.js";
import { enqueue } from "./outbox.js";
import { resolveCodeLocally } from "./field-ops.js";

export type ScanMode = "load" | "unload" | "unpack";
type Versioned = { rowVersion: number };

const base = (row: Versioned) => (row.rowVersion > 0 ? { baseVersion: row.rowVersion } : {});

export async function queueMoveCreate(db: InventoryDb, locationId: string, name: string, toLocationId: string | null): Promise<string> {
  const id = uuidv7();
  await enqueue(db, { name: "move.create", locationId, args: { id, name, ...(toLocationId ? { toLocationId } : {}) } });
  return id;
}

export function queueMoveUpdate(db: InventoryDb, move: Pick<MoveRow, "id" | "locationId" | "rowVersion">, patch: MoveUpdateArgs["patch"]): Promise<Op> {
  return enqueue(db, { name: "move.update", locationId: move.locationId, args: { id: move.id, patch }, ...base(move) });
}

export function queueBoxAdd(db: InventoryDb, move: Pick<MoveRow, "id" | "locationId">, containerId: string, destination?: DestinationInput): Promise<Op> {
  return enqueue(db, {
    name: "box.add",
    locationId: move.locationId,
    args: { id: uuidv7(), moveId: move.id, containerId, at: new Date().toISOString(), ...(destination !== undefined ? { destination } : {}) },
  });
}

export function queueBoxDestination(
  db: InventoryDb,
  move: Pick<MoveRow, "id" | "locationId">,
  box: Pick<MoveBoxRow, "containerId">,
  destination: DestinationInput,
): Promise<Op> {
  return enqueue(db, { name: "box.update", locationId: move.locationId, args: { moveId: move.id, containerId: box.containerId, destination } });
}

export function queueBoxRemove(db: InventoryDb, move: Pick<MoveRow, "id" | "locationId">, box: Pick<MoveBoxRow, "containerId" | "rowVersion">): Promise<Op> {
  return enqueue(db, { name: "box.remove", locationId: move.locationId, args: { moveId: move.id, containerId: box.containerId }, ...base(box) });
}

export function queueScan(db: InventoryDb, move: Pick<MoveRow, "id" | "locationId">, containerId: string, mode: ScanMode): Promise<Op> {
  return enqueue(db, { name: `box.${mode}`, locationId: move.locationId, args: { moveId: move.id, containerId, at: new Date().toISOString() } });
}

export interface MoveState {
  moves: Map<string, View<MoveRow>>;
  /** By `moveId/containerId`. */
  boxes: Map<string, View<MoveBoxRow>>;
}

const boxKey = (moveId: string, containerId: string) => `${moveId}/${containerId}`;
const ms = (iso: string) => Date.parse(iso);

/** One waiting op on top of the state (ops of other kinds are ignored). */
export function applyMoveOp(state: MoveState, op: Op): void {
  switch (op.name) {
    case "move.create": {
      const a = op.args;
      state.moves.set(a.id, {
        id: a.id,
        locationId: op.locationId,
        toLocationId: a.toLocationId ?? null,
        toLocationName: null,
        name: a.name.trim(),
        status: "active",
        createdBy: null,
        finishedAt: null,
        rowVersion: 0,
        createdAt: op.at,
        updatedAt: op.at,
        deletedAt: null,
        pending: true,
      });
      return;
    }
    case "move.update": {
      const m = state.moves.get(op.args.id);
      if (!m || m.status !== "active") return;
      const p = op.args.patch;
      state.moves.set(m.id, {
        ...m,
        ...(p.name !== undefined ? { name: p.name.trim() } : {}),
        ...(p.toLocationId !== undefined ? { toLocationId: p.toLocationId, toLocationName: null } : {}),
        ...(p.status !== undefined ? { status: p.status, finishedAt: p.status === "finished" ? op.at : null } : {}),
        pending: true,
      });
      return;
    }
    case "box.add": {
      const a = op.args;
      const move = state.moves.get(a.moveId);
      if (!move || move.status !== "active" || state.boxes.has(boxKey(a.moveId, a.containerId))) return;
      const numbers = [...state.boxes.values()].filter((b) => b.moveId === a.moveId).map((b) => b.number);
      state.boxes.set(boxKey(a.moveId, a.containerId), {
        id: a.id,
        locationId: op.locationId,
        moveId: a.moveId,
        containerId: a.containerId,
        number: Math.max(0, ...numbers) + 1,
        state: "packed",
        stateAt: a.at ?? op.at,
        destinationPlaceId: a.destination?.placeId ?? null,
        destinationName: a.destination?.name ?? null,
        rowVersion: 0,
        createdAt: op.at,
        updatedAt: op.at,
        deletedAt: null,
        pending: true,
      });
      return;
    }
    case "box.update":
    case "box.load":
    case "box.unload":
    case "box.unpack": {
      const k = boxKey(op.args.moveId, op.args.containerId);
      const box = state.boxes.get(k);
      const move = state.moves.get(op.args.moveId);
      if (!box || !move || move.status !== "active") return;
      const to = op.name === "box.update" ? op.args.state : SCAN_STATES[op.name];
      const at = op.args.at ?? op.at;
      let next: View<MoveBoxRow> = box;
      if (op.name === "box.update" && op.args.destination !== undefined) {
        const d = op.args.destination;
        next = { ...next, destinationPlaceId: d?.placeId ?? null, destinationName: d?.name ?? null, pending: true };
      }
      if (to && boxTransition(box.state, to) === "ok") {
        const outrun = op.name !== "box.update" && to !== "unpacked" && ms(at) < ms(box.stateAt);
        if (!outrun) next = { ...next, state: to, stateAt: at, pending: true };
      }
      state.boxes.set(k, next);
      return;
    }
    case "box.remove":
      state.boxes.delete(boxKey(op.args.moveId, op.args.containerId));
      return;
    default:
      return;
  }
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
