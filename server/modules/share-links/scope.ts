/**
 * The things a share link shows, as SQL: for a thing, what is inside it (at any depth); for a
 * place, what is in it or its sub-places, and inside their containers; for a view, the location's
 * things (or a place's, as for a place) narrowed by type, tag and text. Ended and trashed things
 * never show. Ordered by name, and no further than the link's cap.
 */
import type { ShareLinkFilter } from "../../../shared/share-links.js";
import { type SQL } from "drizzle-orm";
import { sql } from "../../db/client.js";

export interface LinkScope {
  id: string;
  locationId: string;
  scope: "thing" | "place" | "view";
  targetId: string | null;
  filter: ShareLinkFilter | null;
  cap: number;
}

/** `SELECT id, sort_name` of the link's things, in display order, at most `cap` of them. */
export function scopedThings(link: LinkScope): SQL {
  const f = link.filter ?? {};
  const rootPlace = link.scope === "place" ? link.targetId : link.scope === "view" ? (f.placeId ?? null) : null;
  const rootThing = link.scope === "thing" ? link.targetId : null;
  const base =
    link.scope === "thing" ? sql`t.container_id = ${rootThing}::uuid` : rootPlace ? sql`t.place_id IN (SELECT id FROM sub)` : sql`t.place_id IS NOT NULL`;
  const narrowed: SQL[] = [sql`t.lifecycle IN ('active', 'in_repair')`];
  if (f.typeId) narrowed.push(sql`t.type_id = ${f.typeId}::uuid`);
  if (f.tagId) narrowed.push(sql`${f.tagId}::uuid = ANY(t.tag_ids)`);
  if (f.q) {
    const q = f.q.toLowerCase();
    narrowed.push(sql`(position(${q} in lower(coalesce(t.name, ''))) > 0 OR position(${q} in lower(coalesce(t.description, ''))) > 0)`);
  }
  // UNION (not UNION ALL) keeps each row once, so a cycle in bad data cannot loop.
  return sql`WITH RECURSIVE sub(id) AS (
      SELECT p.id FROM places p WHERE p.id = ${rootPlace}::uuid AND p.location_id = ${link.locationId}::uuid AND p.deleted_at IS NULL
      UNION
      SELECT p.id FROM places p JOIN sub ON p.parent_id = sub.id WHERE p.deleted_at IS NULL
    ), held(id) AS (
      SELECT t.id FROM things t WHERE t.location_id = ${link.locationId}::uuid AND t.deleted_at IS NULL AND ${base}
      UNION
      SELECT c.id FROM things c JOIN held ON c.container_id = held.id WHERE c.deleted_at IS NULL AND c.location_id = ${link.locationId}::uuid
    )
    SELECT t.id, lower(coalesce(t.name, '')) AS sort_name FROM things t
    WHERE t.id IN (SELECT id FROM held) AND ${sql.join(narrowed, sql` AND `)}
    ORDER BY lower(coalesce(t.name, '')), t.id
    LIMIT ${link.cap}`;
}
