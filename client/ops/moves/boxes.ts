/**
 * What the box ops share: a box is keyed by its move and container, and its state changes by the
 * server's own rules (shared/moves.ts): the same scan twice changes nothing, an unpacked box stays
 * unpacked, a load older than the box's last change is outrun by it.
 */
import { boxTransition, SCAN_STATES } from "../../../shared/moves.js";
import type { Op } from "../../../sync/ops.js";
import type { MoveBoxRow } from "../../db/rows.js";
import type { MoveState } from "../views.js";
import type { View } from "../rows.js";

export type ScanMode = "load" | "unload" | "unpack";

export const boxKey = (moveId: string, containerId: string) => `${moveId}/${containerId}`;
export const moveBase = (row: { rowVersion: number }) => (row.rowVersion > 0 ? { baseVersion: row.rowVersion } : {});

/** A box's change of state and destination, on a box of an active move the device holds. */
export function changeBox(state: MoveState, op: Extract<Op, { name: "box.update" | "box.load" | "box.unload" | "box.unpack" }>): void {
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
    const outrun = op.name !== "box.update" && to !== "unpacked" && Date.parse(at) < Date.parse(box.stateAt);
    if (!outrun) next = { ...next, state: to, stateAt: at, pending: true };
  }
  state.boxes.set(k, next);
}

/** Unpacking moves the box and what is in it, with their rows. */
export const UNPACK_SHAPES = ["move_boxes", "things", "codes", "meters", "readings", "box_checks", "inbox"] as const;
