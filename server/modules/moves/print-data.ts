/**
 * What the printed pages of a move show, read as the person printing: the move, its boxes by
 * number (those whose box the reader can still see), and for packing lists what each box holds,
 * containers in containers indented under their box.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import { type Tx, rows, sql, uuidArray } from "../../db/client.js";
import { moveBoxes, moves, things } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";

export interface PrintedThing {
  name: string | null;
  quantity: string;
  type: string | null;
  code: string | null;
  /** 1 for what lies in the box itself, 2 for what lies in a container inside it, ... */
  depth: number;
}

export interface PrintedBox {
  containerId: string;
  number: number;
  name: string | null;
  code: string | null;
  destination: string | null;
  contents: PrintedThing[];
}

export interface PrintedMove {
  name: string;
  from: string;
  to: string | null;
  boxes: PrintedBox[];
}

/** Deepest nesting a packing list follows (as the box-check chains). */
const MAX_DEPTH = 64;

export async function printedMove(tx: Tx, moveId: string, opts: { containerId?: string | undefined; contents: boolean }): Promise<PrintedMove> {
  const [move] = await tx
    .select()
    .from(moves)
    .where(and(eq(moves.id, moveId), isNull(moves.deletedAt)));
  if (!move) throw new NotFoundError("move");
  const boxRows = await tx
    .select({ box: moveBoxes, name: things.name, code: things.shortCode })
    .from(moveBoxes)
    // An inner join: a box now in a location the reader cannot see is not printed.
    .innerJoin(things, and(eq(things.id, moveBoxes.containerId), isNull(things.deletedAt)))
    .where(and(eq(moveBoxes.moveId, moveId), isNull(moveBoxes.deletedAt), opts.containerId ? eq(moveBoxes.containerId, opts.containerId) : undefined))
    .orderBy(asc(moveBoxes.number));
  if (opts.containerId && !boxRows.length) throw new NotFoundError("box");
  const [from] = await rows<{ name: string }>(tx, sql`SELECT name FROM locations WHERE id = ${move.locationId}`);
  const destinations = await placeNames(
    tx,
    boxRows.map((b) => b.box.destinationPlaceId).filter((x): x is string => !!x),
  );
  const contents = opts.contents
    ? await contentsOf(
        tx,
        boxRows.map((b) => b.box.containerId),
      )
    : new Map<string, PrintedThing[]>();
  return {
    name: move.name,
    from: from?.name ?? "",
    to: move.toLocationName,
    boxes: boxRows.map(({ box, name, code }) => ({
      containerId: box.containerId,
      number: box.number,
      name,
      code,
      destination: (box.destinationPlaceId && destinations.get(box.destinationPlaceId)) || box.destinationName,
      contents: contents.get(box.containerId) ?? [],
    })),
  };
}

async function placeNames(tx: Tx, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const found = await rows<{ id: string; name: string }>(tx, sql`SELECT id, name FROM places WHERE id = ANY(${uuidArray(ids)})`);
  return new Map(found.map((p) => [p.id, p.name]));
}

/** Every live thing inside each box, depth first in name order (a container followed by what it holds). */
async function contentsOf(tx: Tx, boxIds: string[]): Promise<Map<string, PrintedThing[]>> {
  const out = new Map<string, PrintedThing[]>();
  if (!boxIds.length) return out;
  const found = await rows<{ box: string; name: string | null; quantity: string; type: string | null; code: string | null; depth: number }>(
    tx,
    sql`WITH RECURSIVE inside(box, id, depth, path) AS (
          SELECT t.container_id, t.id, 1, ARRAY[lower(coalesce(t.name, '')) || '/' || t.id::text]
          FROM things t WHERE t.container_id = ANY(${uuidArray(boxIds)}) AND t.deleted_at IS NULL
          UNION ALL
          SELECT i.box, t.id, i.depth + 1, i.path || (lower(coalesce(t.name, '')) || '/' || t.id::text)
          FROM things t JOIN inside i ON t.container_id = i.id
          WHERE t.deleted_at IS NULL AND i.depth < ${MAX_DEPTH}
        )
        SELECT i.box::text AS box, t.name, t.quantity::text AS quantity, y.name AS type, t.short_code AS code, i.depth
        FROM inside i JOIN things t ON t.id = i.id LEFT JOIN types y ON y.id = t.type_id
        ORDER BY i.box, i.path`,
  );
  for (const r of found) {
    const list = out.get(r.box) ?? [];
    list.push({ name: r.name, quantity: r.quantity, type: r.type, code: r.code, depth: Number(r.depth) });
    out.set(r.box, list);
  }
  return out;
}
