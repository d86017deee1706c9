/**
 * Moves of boxes between locations (spec "Move and box", POST /locations/{id}/moves): a household
 * moving house, a mover with a truck. Boxes are containers given a number per move; each is packed,
 * loaded (`in_transit`) and unpacked in the target location, by scanning its code, offline too.
 */
export const MOVE_STATUSES = ["active", "finished", "cancelled"] as const;
export type MoveStatus = (typeof MOVE_STATUSES)[number];

export const BOX_STATES = ["packed", "in_transit", "unpacked"] as const;
export type BoxState = (typeof BOX_STATES)[number];
