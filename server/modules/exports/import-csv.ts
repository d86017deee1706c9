/**
 * CSV import of things (POST /api/v1/locations/:id/imports/csv), for people coming from a
 * spreadsheet or another inventory app. Columns by header: `name` (required), `quantity`,
 * `place` (a path, "House / Kitchen"; missing places are made), `type` (a type's name or built-in
 * key; the default type when empty), and any other column named like a field key of the type.
 * Every row is checked first; with `dryRun` nothing is written, and when any row has a problem
 * nothing is written either (the answer lists each problem by line). Rows are then written through
 * the normal write path (the same thing.create and place.create commands a device pushes).
 */
import { v7 as uuidv7 } from "uuid";
import { CSV_IMPORT_MAX_ROWS, type CsvImportResult } from "../../../shared/exports.js";
import { roleAtLeast } from "../../../shared/roles.js";
import type { Actor } from "../../auth/actor.js";
import { rows, sql } from "../../db/client.js";
import { withActor } from "../../db/actor.js";
import { locationAccess } from "../../access/location.js";
import { ForbiddenError, ValidationError } from "../../errors/classes.js";
import type { ServiceDeps } from "../deps.js";
import { createPlace } from "../places/service.js";
import { createThing } from "../things/service.js";
import { loadRefs } from "../things/refs.js";
import type { EffectiveField } from "../types/fields.js";
import { parseCsv } from "./csv.js";

interface Planned {
  line: number;
  name: string;
  quantity: number;
  path: string[];
  typeId: string | undefined;
  fields: Record<string, unknown>;
}

const norm = (s: string) => s.trim().toLowerCase();
const KNOWN = new Set(["name", "quantity", "place", "type"]);

export async function importCsv(deps: ServiceDeps, actor: Actor, locationId: string, text: string, dryRun: boolean): Promise<CsvImportResult> {
  const table = parseCsv(text);
  const header = (table[0] ?? []).map(norm);
  if (!header.includes("name")) throw new ValidationError("The first line must name the columns, with at least a `name` column.");
  const body = table.slice(1);
  if (body.length > CSV_IMPORT_MAX_ROWS) throw new ValidationError(`At most ${CSV_IMPORT_MAX_ROWS} rows per import; this file has ${body.length}.`);

  const { types, fieldsOf, places } = await withActor(deps.db, actor, async (tx) => {
    const access = await locationAccess(tx, locationId);
    if (!actor.canWrite || !roleAtLeast(access.role, "member")) throw new ForbiddenError("Only members and above can import things.");
    const refs = await loadRefs(tx, { locationIds: [locationId] });
    const found = await rows<{ id: string; parent_id: string | null; name: string }>(
      tx,
      sql`SELECT id::text AS id, parent_id::text AS parent_id, name FROM places WHERE location_id = ${locationId} AND deleted_at IS NULL AND NOT is_unplaced`,
    );
    return { types: [...refs.types.values()], fieldsOf: refs.fieldsOf.bind(refs), places: found };
  });
  const typeByName = new Map<string, string>();
  for (const ty of types) {
    if (ty.deletedAt || ty.archivedAt || ty.isGroup) continue;
    if (ty.builtinKey) typeByName.set(norm(ty.builtinKey), ty.id);
    if (ty.name) typeByName.set(norm(ty.name), ty.id);
  }

  const errors: CsvImportResult["errors"] = [];
  const planned: Planned[] = [];
  body.forEach((cells, i) => {
    const line = i + 2;
    const get = (col: string) => (header.indexOf(col) >= 0 ? (cells[header.indexOf(col)] ?? "").trim() : "");
    const problems: string[] = [];
    const name = get("name");
    if (!name) problems.push("name is empty");
    else if (name.length > 200) problems.push("name is longer than 200 characters");
    const q = get("quantity");
    const quantity = q === "" ? 1 : Number(q.replace(",", "."));
    if (!Number.isFinite(quantity) || quantity <= 0 || quantity >= 1e11) problems.push(`quantity "${q}" is not a number above zero (and below 100000000000)`);
    const typeText = get("type");
    const typeId = typeText ? typeByName.get(norm(typeText)) : undefined;
    if (typeText && !typeId) problems.push(`no type named "${typeText}"`);
    const defs = typeId ? fieldsOf(typeId) : new Map<string, EffectiveField>();
    const fields: Record<string, unknown> = {};
    header.forEach((col, c) => {
      const value = (cells[c] ?? "").trim();
      if (KNOWN.has(col) || value === "") return;
      const def = defs.get(col);
      if (!def) return void problems.push(`column "${col}" is not a field of ${typeText ? `type "${typeText}"` : "the default type"}`);
      if (def.field.secret) return void problems.push(`"${col}" is a secret field; secret values are not imported from CSV`);
      if (def.field.kind === "number") {
        const n = Number(value);
        if (!Number.isFinite(n)) return void problems.push(`"${col}" needs a number, not "${value}"`);
        fields[col] = n;
      } else if (def.field.kind === "boolean") {
        if (!/^(true|false|yes|no|1|0)$/i.test(value)) return void problems.push(`"${col}" needs true or false, not "${value}"`);
        fields[col] = /^(true|yes|1)$/i.test(value);
      } else fields[col] = value;
    });
    const path = get("place")
      .split("/")
      .map((p) => p.trim())
      .filter(Boolean);
    if (path.some((p) => p.length > 120)) problems.push("a place name is longer than 120 characters");
    if (problems.length) errors.push({ line, reason: problems.join("; ") });
    else planned.push({ line, name, quantity, path, typeId, fields });
  });

  // Places by path: existing ones are reused, missing ones counted (and made on a real run).
  const children = new Map<string, string>(); // `${parentId}/${name}` -> id
  for (const p of places) children.set(`${p.parent_id ?? ""}/${norm(p.name)}`, p.id);
  const toMake = new Set<string>();
  for (const r of planned)
    r.path.forEach((_, i) =>
      toMake.add(
        r.path
          .slice(0, i + 1)
          .map(norm)
          .join("/"),
      ),
    );
  const existing = (path: string[]) => {
    let parent = "";
    for (const name of path) {
      const id = children.get(`${parent}/${norm(name)}`);
      if (!id) return null;
      parent = id;
    }
    return parent;
  };
  const placesNeeded = [...toMake].filter((k) => existing(k.split("/")) === null).length;
  const result = { dryRun, rows: body.length, ok: planned.length, created: 0, placesCreated: 0, errors };
  if (dryRun || errors.length) return { ...result, placesCreated: dryRun ? placesNeeded : 0 };

  const placeOf = async (path: string[]): Promise<string | undefined> => {
    let parent = "";
    for (const name of path) {
      const key = `${parent}/${norm(name)}`;
      let id = children.get(key);
      if (!id) {
        id = uuidv7();
        await createPlace(deps, actor, locationId, { id, name, parentId: parent || null });
        children.set(key, id);
        result.placesCreated += 1;
      }
      parent = id;
    }
    return parent || undefined;
  };
  for (const r of planned) {
    try {
      const placeId = await placeOf(r.path);
      await createThing(deps, actor, locationId, {
        name: r.name,
        quantity: String(r.quantity),
        ...(placeId ? { placeId } : {}),
        ...(r.typeId ? { typeId: r.typeId } : {}),
        ...(Object.keys(r.fields).length ? { fields: r.fields } : {}),
      });
      result.created += 1;
    } catch (err) {
      // A row the write path refused (a field value its type does not take): reported, the rest go on.
      errors.push({ line: r.line, reason: err instanceof Error ? err.message : "could not be written" });
    }
  }
  return { ...result, ok: result.created };
}
