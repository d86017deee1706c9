/**
 * What every box op of a segment reads: its moves (locked, so box numbers are handed out one
 * transaction at a time) and their live boxes, by move and container; and the checks they share.
 */
import type { DestinationInput } from "../../../shared/moves.js";
import type { CommandContext, Op } from "../../commands/types.js";
import { rows, sql, uuidArray } from "../../db/client.js";
import { moveBoxes } from "../../db/schema/index.js";
import { ConflictError, NotFoundError, type AppError } from "../../errors/classes.js";

export type BoxRow = typeof moveBoxes.$inferSelect;
export interface MoveRef {
  id: string;
  locationId: string;
  toLocationId: string | null;
  toLocationName: string | null;
  status: string;
  name: string;
}
export type BoxOpArgs = { moveId: string; containerId: string };

export const key = (a: BoxOpArgs) => `${a.moveId.toLowerCase()}/${a.containerId.toLowerCase()}`;

/** What a segment of box ops reads: the moves (locked: box numbers are handed out under this lock) and their live boxes. */
export async function loadSegment(ctx: CommandContext, ops: Op<BoxOpArgs>[]) {
  const moveIds = [...new Set(ops.map((o) => o.args.moveId.toLowerCase()))];
  const found = await rows<MoveRef>(
    ctx.tx,
    sql`SELECT id, location_id AS "locationId", to_location_id AS "toLocationId", to_location_name AS "toLocationName", status, name FROM moves
        WHERE id = ANY(${uuidArray(moveIds)}) AND deleted_at IS NULL ORDER BY id FOR UPDATE`,
  );
  const boxes = await ctx.tx
    .select()
    .from(moveBoxes)
    .where(sql`${moveBoxes.moveId} = ANY(${uuidArray(moveIds)}) AND ${moveBoxes.deletedAt} IS NULL`)
    .for("update");
  return { moves: new Map(found.map((m) => [m.id, m])), boxes: new Map(boxes.map((b) => [key(b), b])) };
}

/** The move of an op, or why the op cannot touch it. */
export function moveProblem(op: Op<BoxOpArgs>, move: MoveRef | undefined): AppError | null {
  if (!move || move.locationId !== op.input.locationId) return new NotFoundError("move");
  if (move.status !== "active") return new ConflictError(`The move "${move.name}" is ${move.status}; its boxes cannot change any more.`);
  return null;
}

/** Destinations as stored, checked against the places of the location the box goes to. */
export async function destinations(ctx: CommandContext, items: { move: MoveRef; destination: DestinationInput | undefined }[]) {
  const placeIds = [...new Set(items.map((i) => i.destination?.placeId?.toLowerCase()).filter((x): x is string => !!x))];
  const found = placeIds.length
    ? await rows<{ id: string; locationId: string; name: string }>(
        ctx.tx,
        sql`SELECT id, location_id AS "locationId", name FROM places WHERE id = ANY(${uuidArray(placeIds)}) AND deleted_at IS NULL`,
      )
    : [];
  const places = new Map(found.map((p) => [p.id, p]));
  return (move: MoveRef, d: DestinationInput): { placeId: string | null; name: string | null } | AppError => {
    if (!d) return { placeId: null, name: null };
    const placeId = d.placeId?.toLowerCase() ?? null;
    if (!placeId) return { placeId: null, name: d.name ?? null };
    const place = places.get(placeId);
    const goesTo = move.toLocationId ?? move.locationId;
    if (!place || place.locationId !== goesTo) return new NotFoundError("destination place (a place of the location the boxes go to)");
    return { placeId, name: d.name ?? place.name };
  };
}
