/**
 * Place paths: for each thing, the chain of places and containers from the location's root down to
 * what directly holds it, in one recursive query for a whole page.
 */
import type { PlacePathEntry } from "../../../shared/places.js";
import { type Tx, namedRows, sql, uuidArray } from "../../db/client.js";

export async function thingPaths(tx: Tx, thingIds: string[]): Promise<Map<string, PlacePathEntry[]>> {
  const out = new Map<string, PlacePathEntry[]>(thingIds.map((id) => [id, []]));
  if (!thingIds.length) return out;
  const found = await namedRows<{
    thing_id: string;
    kind: "place" | "container";
    id: string;
    name: string | null;
    is_unplaced: boolean;
    short_code: string | null;
  }>(
    tx,
    "thing_paths",
    sql`WITH RECURSIVE up(thing_id, depth, kind, node_id) AS (
          SELECT t.id, 0, CASE WHEN t.container_id IS NOT NULL THEN 'container' ELSE 'place' END, coalesce(t.container_id, t.place_id)
          FROM things t WHERE t.id = ANY(${uuidArray(thingIds)})
          UNION ALL
          SELECT up.thing_id, up.depth + 1, nxt.kind, nxt.node_id
          FROM up
          CROSS JOIN LATERAL (
            SELECT CASE WHEN c.container_id IS NOT NULL THEN 'container' ELSE 'place' END AS kind, coalesce(c.container_id, c.place_id) AS node_id
            FROM things c WHERE up.kind = 'container' AND c.id = up.node_id
            UNION ALL
            SELECT 'place', p.parent_id FROM places p WHERE up.kind = 'place' AND p.id = up.node_id
          ) nxt
          WHERE up.node_id IS NOT NULL AND up.depth < 64
        )
        -- Each node is looked up by its key (LATERAL), never by joining whole tables: joins on
        -- "things" made the planner hash every thing of the location for a 50-row page.
        SELECT up.thing_id, up.kind, up.node_id AS id, n.name, coalesce(n.is_unplaced, false) AS is_unplaced, n.short_code
        FROM up
        LEFT JOIN LATERAL (
          SELECT c.name, false AS is_unplaced, c.short_code FROM things c WHERE up.kind = 'container' AND c.id = up.node_id
          UNION ALL
          SELECT p.name, p.is_unplaced, p.short_code FROM places p WHERE up.kind = 'place' AND p.id = up.node_id
        ) n ON true
        WHERE up.node_id IS NOT NULL
        ORDER BY up.thing_id, up.depth DESC`,
  );
  for (const r of found) {
    out.get(r.thing_id)?.push({ id: r.id, name: r.name ?? "", kind: r.kind, isUnplaced: r.is_unplaced, shortCode: r.short_code });
  }
  return out;
}
