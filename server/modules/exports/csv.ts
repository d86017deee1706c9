/** CSV text (RFC 4180) for exports and imports, and the place paths both show ("House / Kitchen"). */
import { rows, sql, uuidArray, type Db } from "../../db/client.js";
import { asSystem } from "../../db/actor.js";

export const PATH_SEPARATOR = " / ";

const cell = (v: string | null | undefined) => {
  const s = v ?? "";
  // A cell that a spreadsheet would run as a formula is quoted with a leading apostrophe.
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(cell).join(",")}\r\n`;

/** Parses CSV text into rows of cells (quoted cells may hold commas, quotes and line breaks). */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cur = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cur += '"';
          i++;
        } else quoted = false;
      } else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cur);
      cur = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(cur);
      out.push(row);
      row = [];
      cur = "";
    } else cur += c;
  }
  if (cur !== "" || row.length) {
    row.push(cur);
    out.push(row);
  }
  return out.filter((r) => r.some((c) => c.trim() !== ""));
}

export interface PlacePath {
  locationId: string;
  name: string;
  path: string;
  isUnplaced: boolean;
}

/** Every place of the locations with its path from the top (one query; places are few next to things). */
export async function placePaths(db: Db, locationIds: string[]): Promise<Map<string, PlacePath>> {
  const found = await asSystem(db, (tx) =>
    rows<{ id: string; parent_id: string | null; name: string; location_id: string; is_unplaced: boolean }>(
      tx,
      sql`SELECT id::text AS id, parent_id::text AS parent_id, name, location_id::text AS location_id, is_unplaced
          FROM places WHERE location_id = ANY(${uuidArray(locationIds)}) AND deleted_at IS NULL ORDER BY name, id`,
    ),
  );
  const byId = new Map(found.map((p) => [p.id, p]));
  const out = new Map<string, PlacePath>();
  for (const p of found) {
    const names: string[] = [];
    const seen = new Set<string>();
    for (let at: typeof p | undefined = p; at && !seen.has(at.id); at = at.parent_id ? byId.get(at.parent_id) : undefined) {
      seen.add(at.id);
      names.unshift(at.name);
    }
    out.set(p.id, { locationId: p.location_id, name: p.name, path: names.join(PATH_SEPARATOR), isUnplaced: p.is_unplaced });
  }
  return out;
}
