/**
 * What a report shows, read as its requester (withActor: row-level security and the requester's
 * role decide): the location, the things the filters pick, their place paths, types and custom
 * fields. Secret fields never; money fields only when the request asked for money AND the
 * requester may see money in this location (spec "Roles in a location": viewers see money only
 * when the location allows it), decided now, when the report is built, not when it was asked for.
 */
import type { ReportParams } from "../../../shared/reports.js";
import { type Tx, rows, sql, uuidArray } from "../../db/client.js";
import { locationAccess } from "../../access/location.js";
import { loadRefs } from "../things/refs.js";
import { thingPaths } from "../things/paths.js";

export interface ReportField {
  label: string;
  kind: string;
  value: unknown;
}

export interface ReportThing {
  id: string;
  name: string | null;
  quantity: string;
  shortCode: string | null;
  type: { name: string | null; builtinKey: string | null };
  /** Names from the location's root down to what holds the thing (places, then containers). */
  path: string[];
  fields: ReportField[];
  cover: { sha256: string; mime: string } | null;
  lifecycle: string;
  trashed: boolean;
}

export interface ReportData {
  location: { id: string; name: string };
  showsMoney: boolean;
  things: ReportThing[];
}

interface ThingRow {
  id: string;
  name: string | null;
  quantity: string;
  short_code: string | null;
  type_id: string;
  type_name: string | null;
  builtin_key: string | null;
  fields: Record<string, unknown>;
  cover_sha: string | null;
  cover_mime: string | null;
  lifecycle: string;
  trashed: boolean;
}

const CHUNK = 1000;

export async function reportData(tx: Tx, locationId: string, params: ReportParams): Promise<ReportData> {
  const access = await locationAccess(tx, locationId);
  const showsMoney = params.include.money && access.seesMoney;
  const [loc] = await rows<{ name: string }>(tx, sql`SELECT name FROM locations WHERE id = ${locationId}`);
  const f = params.filters;
  const where = [sql`t.location_id = ${locationId}`, sql`t.lifecycle <> 'draft'`];
  if (!f.includeTrashed) where.push(sql`t.deleted_at IS NULL`);
  if (!f.includeEnded) where.push(sql`t.lifecycle <> 'ended'`);
  if (f.typeIds?.length) where.push(sql`t.type_id = ANY(${uuidArray(f.typeIds)})`);
  if (f.tagIds?.length) where.push(sql`t.tag_ids && ${uuidArray(f.tagIds)}`);
  if (f.thingIds?.length) where.push(sql`t.id = ANY(${uuidArray(f.thingIds)})`);
  if (f.placeIds?.length) {
    // The places, their sub-places, and everything in containers there (as the things list's placeId).
    where.push(sql`t.id IN (
      WITH RECURSIVE sub(id) AS (SELECT id FROM places WHERE id = ANY(${uuidArray(f.placeIds)}) AND location_id = ${locationId}
                                 UNION ALL SELECT p.id FROM places p JOIN sub ON p.parent_id = sub.id),
      inside(id) AS (SELECT x.id FROM things x WHERE x.place_id IN (SELECT id FROM sub)
                     UNION ALL SELECT x.id FROM things x JOIN inside i ON x.container_id = i.id)
      SELECT id FROM inside)`);
  }
  const found = await rows<ThingRow>(
    tx,
    sql`SELECT t.id::text AS id, t.name, t.quantity::text AS quantity, t.short_code, t.type_id::text AS type_id,
               ty.name AS type_name, ty.builtin_key, t.fields, f.sha256 AS cover_sha, f.mime AS cover_mime,
               t.lifecycle, (t.deleted_at IS NOT NULL) AS trashed
        FROM things t
        LEFT JOIN types ty ON ty.id = t.type_id
        LEFT JOIN files f ON f.id = t.cover_file_id AND f.deleted_at IS NULL
        WHERE ${sql.join(where, sql` AND `)}
        ORDER BY lower(coalesce(t.name, '')), t.id`,
  );
  const paths = new Map<string, string[]>();
  for (let i = 0; i < found.length; i += CHUNK) {
    const part = await thingPaths(
      tx,
      found.slice(i, i + CHUNK).map((t) => t.id),
    );
    for (const [id, p] of part)
      paths.set(
        id,
        p.map((e) => e.name),
      );
  }
  const refs = await loadRefs(tx, { locationIds: [locationId] });
  const things = found.map((t): ReportThing => {
    const defs = refs.fieldsOf(t.type_id);
    const fields: ReportField[] = [];
    for (const [key, value] of Object.entries(t.fields ?? {})) {
      const def = defs.get(key)?.field;
      // Unknown keys are left out too: only what a defined, non-secret field holds is printed.
      if (!def || def.secret) continue;
      if (def.kind === "money" && !showsMoney) continue;
      if (value === null || value === undefined || value === "") continue;
      fields.push({ label: def.label ?? key, kind: def.kind, value });
    }
    return {
      id: t.id,
      name: t.name,
      quantity: t.quantity,
      shortCode: t.short_code,
      type: { name: t.type_name, builtinKey: t.builtin_key },
      path: paths.get(t.id) ?? [],
      fields,
      cover: params.include.photos && t.cover_sha ? { sha256: t.cover_sha, mime: t.cover_mime ?? "" } : null,
      lifecycle: t.lifecycle,
      trashed: t.trashed,
    };
  });
  return { location: { id: locationId, name: loc?.name ?? "" }, showsMoney, things };
}
