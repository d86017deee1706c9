/**
 * Place paths: for each thing, the chain of places and containers from the location's root down to
 * what directly holds it, in one recursive query for a whole page (the SQL function
 * app_thing_paths, migrations/0036_one_trip_reads.sql, which the list's one-statement read uses too).
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
    sql`SELECT thing_id, kind, node_id AS id, name, is_unplaced, short_code FROM app_thing_paths(${uuidArray(thingIds)}) ORDER BY thing_id, depth DESC`,
  );
  for (const r of found) {
    out.get(r.thing_id)?.push({ id: r.id, name: r.name ?? "", kind: r.kind, isUnplaced: r.is_unplaced, shortCode: r.short_code });
  }
  return out;
}
