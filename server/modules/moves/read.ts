/**
 * Moves in the spec's shape ("Move and box"). A box shows its container as the reader sees it now:
 * once unpacked into a location the reader cannot read, it is `visible: false` with no name, code
 * or place, and counts no contents.
 */
import { and, eq, isNull } from "drizzle-orm";
import type { Move, MoveBox } from "../../../shared/moves.js";
import { locationAccess } from "../../access/location.js";
import { rows, sql, uuidArray, type Tx } from "../../db/client.js";
import { moveBoxes, moves } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { pageOfRows } from "../../db/paging.js";
import { thingPaths } from "../things/paths.js";
import { walkDown } from "../../db/tree.js";

type MoveRow = typeof moves.$inferSelect;
type BoxRow = typeof moveBoxes.$inferSelect;

/** The containers the reader can see, with how many live things each holds at any depth. */
async function containersOf(tx: Tx, ids: string[]) {
  if (!ids.length) return new Map<string, { name: string | null; shortCode: string | null; contents: number }>();
  const found = await rows<{ id: string; name: string | null; short_code: string | null; contents: number }>(
    tx,
    sql`${walkDown("things", sql`n.id = ANY(${uuidArray(ids)}) AND n.deleted_at IS NULL`)}
        SELECT b.id, b.name, b.short_code,
               (SELECT count(*)::int FROM down d JOIN things t ON t.id = d.id WHERE d.root = b.id AND d.depth > 0 AND t.deleted_at IS NULL) AS contents
        FROM things b WHERE b.id = ANY(${uuidArray(ids)}) AND b.deleted_at IS NULL`,
  );
  return new Map(found.map((r) => [r.id, { name: r.name, shortCode: r.short_code, contents: r.contents }]));
}

export async function boxesOut(tx: Tx, boxes: BoxRow[]): Promise<Map<string, MoveBox[]>> {
  const ids = [...new Set(boxes.map((b) => b.containerId))];
  const seen = await containersOf(tx, ids);
  const paths = await thingPaths(tx, [...seen.keys()]);
  const out = new Map<string, MoveBox[]>();
  for (const b of [...boxes].sort((x, y) => x.number - y.number)) {
    const c = seen.get(b.containerId);
    const path = paths.get(b.containerId);
    const box: MoveBox = {
      moveId: b.moveId,
      containerId: b.containerId,
      number: b.number,
      state: b.state,
      stateAt: b.stateAt.toISOString(),
      visible: !!c,
      name: c ? c.name : null,
      shortCode: c ? c.shortCode : null,
      where: c ? (path ?? []).map((p) => p.name).join(" / ") : null,
      contents: c ? c.contents : 0,
      destination: b.destinationPlaceId || b.destinationName ? { placeId: b.destinationPlaceId, name: b.destinationName ?? "" } : null,
      rowVersion: b.rowVersion,
    };
    out.set(b.moveId, [...(out.get(b.moveId) ?? []), box]);
  }
  return out;
}

export async function movesOut(tx: Tx, rowsIn: MoveRow[]): Promise<Move[]> {
  if (!rowsIn.length) return [];
  const ids = rowsIn.map((m) => m.id);
  const userIds = [...new Set(rowsIn.map((m) => m.createdBy).filter((x): x is string => !!x))];
  const [boxes, names] = await Promise.all([
    tx
      .select()
      .from(moveBoxes)
      .where(and(sql`${moveBoxes.moveId} = ANY(${uuidArray(ids)})`, isNull(moveBoxes.deletedAt))),
    userIds.length ? rows<{ id: string; name: string }>(tx, sql`SELECT id, name FROM users WHERE id = ANY(${uuidArray(userIds)})`) : [],
  ]);
  const byMove = await boxesOut(tx, boxes);
  const userName = new Map(names.map((u) => [u.id, u.name]));
  return rowsIn.map((m) => {
    const list = byMove.get(m.id) ?? [];
    const count = (s: string) => list.filter((b) => b.state === s).length;
    return {
      id: m.id,
      locationId: m.locationId,
      toLocationName: m.toLocationName,
      name: m.name,
      status: m.status,
      createdBy: { displayName: (m.createdBy && userName.get(m.createdBy)) || "Former member" },
      createdAt: m.createdAt.toISOString(),
      finishedAt: m.finishedAt?.toISOString() ?? null,
      counts: { packed: count("packed"), in_transit: count("in_transit"), unpacked: count("unpacked"), total: list.length },
      rowVersion: m.rowVersion,
      boxes: list,
    };
  });
}

/** A visible move's row, or 404. */
export async function findMoveRow(tx: Tx, id: string): Promise<MoveRow> {
  const [row] = await tx
    .select()
    .from(moves)
    .where(and(eq(moves.id, id), isNull(moves.deletedAt)));
  if (!row) throw new NotFoundError("move");
  return row;
}

export async function findMove(tx: Tx, id: string): Promise<Move> {
  return (await movesOut(tx, [await findMoveRow(tx, id)]))[0]!;
}

/** A location's moves, newest first. */
export async function listMoves(tx: Tx, locationId: string, q: { limit: number; cursor?: string | undefined }) {
  await locationAccess(tx, locationId);
  const page = await pageOfRows(tx, moves, moves.createdAt, [eq(moves.locationId, locationId), isNull(moves.deletedAt)], q);
  return { items: await movesOut(tx, page.rows), next_cursor: page.next_cursor };
}

/** A live box of a visible move, or 404. */
export async function findBox(tx: Tx, moveId: string, containerId: string): Promise<MoveBox> {
  const [row] = await tx
    .select()
    .from(moveBoxes)
    .where(and(eq(moveBoxes.moveId, moveId), eq(moveBoxes.containerId, containerId), isNull(moveBoxes.deletedAt)));
  if (!row) throw new NotFoundError("box of this move");
  return (await boxesOut(tx, [row])).get(moveId)![0]!;
}
