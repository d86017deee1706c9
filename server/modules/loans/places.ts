/**
 * Place references (spec "Place reference") for loans' previous and return places: a place or a
 * container, with its name, its path from the location's root as text and its short code.
 */
import type { PlaceRef } from "../../../shared/loans.js";
import { rows, sql, uuidArray, type Tx } from "../../db/client.js";
import { thingPaths } from "../things/paths.js";
import { walkUp } from "../../db/tree.js";

export interface PlaceKey {
  placeId: string | null;
  containerId: string | null;
}

const SEP = " / ";

/** The references of these keys, by `place:<id>` / `thing:<id>`; absent when the place is gone. */
export async function placeRefs(tx: Tx, keys: PlaceKey[]): Promise<Map<string, PlaceRef>> {
  const placeIds = [...new Set(keys.filter((k) => !k.containerId && k.placeId).map((k) => k.placeId!))];
  const containerIds = [...new Set(keys.map((k) => k.containerId).filter((x): x is string => !!x))];
  const [places, containers, paths] = await Promise.all([
    placeIds.length
      ? rows<{ id: string; name: string; short_code: string | null; path: string }>(
          tx,
          sql`${walkUp("places", sql`n.id = ANY(${uuidArray(placeIds)})`)}
              SELECT s.id::text AS id, s.name, s.short_code,
                (SELECT string_agg(a.name, ${SEP} ORDER BY up.depth DESC) FROM up JOIN places a ON a.id = up.id WHERE up.start = s.id) AS path
              FROM places s WHERE s.id = ANY(${uuidArray(placeIds)}) AND s.deleted_at IS NULL`,
        )
      : [],
    containerIds.length
      ? rows<{ id: string; name: string | null; short_code: string | null }>(
          tx,
          sql`SELECT id::text AS id, name, short_code FROM things WHERE id = ANY(${uuidArray(containerIds)}) AND deleted_at IS NULL`,
        )
      : [],
    thingPaths(tx, containerIds),
  ]);
  const out = new Map<string, PlaceRef>();
  for (const p of places) out.set(`place:${p.id}`, { type: "place", id: p.id, name: p.name, path: p.path ?? p.name, shortCode: p.short_code });
  for (const c of containers) {
    const name = c.name ?? "";
    const path = [...(paths.get(c.id) ?? []).map((e) => e.name), name].join(SEP);
    out.set(`thing:${c.id}`, { type: "thing", id: c.id, name, path, shortCode: c.short_code });
  }
  return out;
}

export const refKey = (k: PlaceKey): string | null => (k.containerId ? `thing:${k.containerId}` : k.placeId ? `place:${k.placeId}` : null);
