/**
 * Place paths: for each thing, the chain of places and containers from the location's root down to
 * what directly holds it, in one recursive query for a whole page.
 */
import type { PlacePathEntry } from "../../../shared/places.js";
import { type Tx, rows, sql, uuidArray } from "../../db/client.js";

export async function thingPaths(tx: Tx, thingIds: string[]): Promise<Map<string, PlacePathEntry[]>> {
  const out = new Map<string, PlacePathEntry[]>(thingIds.map((id) => [id, []]));
  if (!thingIds.length) return out;
  const found = await rows<{ thing_id: string; kind: "place" | "container"; id: string; name: string | null; is_unplaced: boolean; short_code: string | null }>(
    tx,
    sql`WITH RECURSIVE up(thing_id, depth, kind, node_id) AS (
          SELECT t.id, 0, CASE WHEN t.container_id IS NOT NULL THEN 'container' ELSE 'place' END, coalesce(t.container_id, t.place_id)
          FROM things t WHERE t.id = ANY(${uuidArray(thingIds)})
          UNION ALL
          SELECT up.thing_id, up.depth + 1,
                 CASE WHEN up.kind = 'container' AND c.container_id IS NOT NULL THEN 'container' ELSE 'place' END,
                 CASE WHEN up.kind = 'container' THEN coalesce(c.container_id, c.place_id) ELSE p.parent_id END
          FROM up
          LEFT JOIN things c ON up.kind = 'container' AND c.id = up.node_id
          LEFT JOIN places p ON up.kind = 'place' AND p.id = up.node_id
          WHERE up.node_id IS NOT NULL AND up.depth < 64
        )
        SELECT up.thing_id, up.kind, up.node_id AS id, coalesce(c.name, p.name) AS name,
               coalesce(p.is_unplaced, false) AS is_unplaced, coalesce(c.short_code, p.short_code) AS short_code
        FROM up
        LEFT JOIN things c ON up.kind = 'container' AND c.id = up.node_id
        LEFT JOIN places p ON up.kind = 'place' AND p.id = up.node_id
        WHERE up.node_id IS NOT NULL
        ORDER BY up.thing_id, up.depth DESC`,
  );
  for (const r of found) {
    out.get(r.thing_id)?.push({ id: r.id, name: r.name ?? "", kind: r.kind, isUnplaced: r.is_unplaced, shortCode: r.short_code });
  }
  return out;
}
