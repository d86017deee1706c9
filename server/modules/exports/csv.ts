/** CSV text (RFC 4180) as exports write it, and the place paths exports and imports show ("House / Kitchen"). Reading: csv-read.ts. */
import { rows, sql, uuidArray, type Db } from "../../db/client.js";
import { asSystem } from "../../db/actor.js";

export const PATH_SEPARATOR = " / ";

/**
 * Characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection": `=`, `+`,
 * `-`, `@`, tab, carriage return), with line feed and the full-width forms some spreadsheets also
 * take (＝＋－＠). Any number of apostrophes may come first: see `formulaSafe`.
 */
const FORMULA_LEAD = /^'*[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * The cell with one apostrophe put first when it starts like a formula, as OWASP advises; a
 * spreadsheet shows the text as typed. Cells already starting with apostrophes before such a lead
 * get one more, so `readFormulaSafe` (the CSV import) can take exactly one off and give back what
 * was written, whatever it was: `-1+2` -> `'-1+2` -> `-1+2`, `'=x` -> `''=x` -> `'=x`.
 */
export const formulaSafe = (s: string): string => (FORMULA_LEAD.test(s) ? `'${s}` : s);

/** The inverse of `formulaSafe`: one leading apostrophe taken off a cell that starts like a formula after it. */
export const readFormulaSafe = (s: string): string => (s.startsWith("'") && FORMULA_LEAD.test(s.slice(1)) ? s.slice(1) : s);

const cell = (v: string | null | undefined) => {
  const safe = formulaSafe(v ?? "");
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(cell).join(",")}\r\n`;

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
