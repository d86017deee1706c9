/**
 * CSV import of things (POST /api/v1/locations/:id/imports/csv), for people coming from a
 * spreadsheet or another inventory app. Columns by header: `name` (required), `quantity`,
 * `place` (a path, "House / Kitchen"; missing places are made), `type` (a type's name or built-in
 * key; the default type when empty), the export's `brand`, `lifecycle`, `condition`, `model`,
 * `serial` and `fields`, and any other column named like a field key of the type.
 *
 * One check serves the dry run and the real run: both send every row, as place.create and
 * thing.create commands, through the write core as ONE batch in one transaction, the same way a
 * device's push is applied. The dry run then rolls the transaction back; so does a real run in
 * which any row has a problem (when reading its cells, or refused by the core), and the answer
 * names each problem by line. A real run therefore writes exactly the rows its dry run called
 * ready, or nothing; what it writes reaches devices through the change log like any other write.
 */
import { v7 as uuidv7 } from "uuid";
import { CSV_IMPORT_MAX_ROWS, type CsvImportResult } from "../../../shared/exports.js";
import { isWellFormedText } from "../../../shared/text.js";
import { type Actor, withActor } from "../../db/actor.js";
import type { CommandInput } from "../../commands/types.js";
import { rows, sql, type Tx } from "../../db/client.js";
import { locationAccess } from "../../access/location.js";
import { DependsOnDroppedError, ValidationError } from "../../errors/classes.js";
import type { ServiceDeps } from "../deps.js";
import { executeInTx } from "../write.js";
import { loadRefs } from "../things/refs.js";
import { CsvReadProblem, decodeCsv, parseCsv, type CsvRow } from "./csv-read.js";
import { norm, planRow, type ImportContext, type PlannedRow } from "./csv-rows.js";
import { requireWriteRole } from "../../access/role.js";

/** Thrown to end the transaction without keeping its writes (a dry run, or a run with problems). */
class RollBack extends Error {
  constructor(readonly result: CsvImportResult) {
    super("rolled back");
  }
}

type Problem = CsvImportResult["errors"][number];

/** The currency most of the location's money is in (money fields of its things, then its receipts), or null. */
async function locationCurrency(tx: Tx, locationId: string): Promise<string | null> {
  const [found] = await rows<{ currency: string }>(
    tx,
    sql`SELECT currency FROM (
          SELECT v->>'currency' AS currency FROM things t, jsonb_each(t.fields) AS e(k, v)
          WHERE t.location_id = ${locationId} AND t.deleted_at IS NULL AND jsonb_typeof(v) = 'object' AND v ? 'amount' AND v ? 'currency'
          UNION ALL
          SELECT currency FROM purchases WHERE location_id = ${locationId} AND deleted_at IS NULL AND currency IS NOT NULL
        ) m GROUP BY currency ORDER BY count(*) DESC, currency LIMIT 1`,
  );
  return found?.currency ?? null;
}

/** What the rows are checked against: the location's types, fields, brands, places and currency. */
async function loadContext(tx: Tx, locationId: string) {
  const refs = await loadRefs(tx, { locationIds: [locationId] });
  const places = await rows<{ id: string; parent_id: string | null; name: string; is_unplaced: boolean }>(
    tx,
    sql`SELECT id::text AS id, parent_id::text AS parent_id, name, is_unplaced FROM places WHERE location_id = ${locationId} AND deleted_at IS NULL`,
  );
  const brands = await rows<{ id: string; name: string }>(
    tx,
    sql`SELECT b.id::text AS id, b.name FROM brands b JOIN locations l ON l.account_id = b.account_id
        WHERE l.id = ${locationId} AND b.deleted_at IS NULL ORDER BY b.id`,
  );
  const typeByName = new Map<string, string>();
  for (const ty of refs.types.values()) {
    if (ty.deletedAt || ty.archivedAt || ty.isGroup) continue;
    if (ty.builtinKey) typeByName.set(norm(ty.builtinKey), ty.id);
    if (ty.name) typeByName.set(norm(ty.name), ty.id);
  }
  const brandByName = new Map<string, string>();
  for (const b of brands) if (!brandByName.has(norm(b.name))) brandByName.set(norm(b.name), b.id);
  const ctx: ImportContext = {
    typeByName,
    defaultTypeId: refs.defaultTypeByLocation.get(locationId),
    fieldsOf: (id) => refs.fieldsOf(id),
    brandByName,
    currency: await locationCurrency(tx, locationId),
  };
  return { ctx, places };
}

/** Reads the file; a problem that stops it being read at all is answered as the only problem. */
function readFile(bytes: Uint8Array): { header: string[]; body: CsvRow[] } | Problem {
  try {
    const table = parseCsv(decodeCsv(bytes), CSV_IMPORT_MAX_ROWS + 1);
    const header = (table[0]?.cells ?? []).map(norm);
    if (!header.includes("name")) throw new ValidationError("The first line must name the columns, with at least a `name` column.");
    if (header.some((h) => h.length > 200 || !isWellFormedText(h)))
      throw new ValidationError("A column name in the first line is longer than 200 characters or holds a NUL character; name the columns plainly.");
    const twice = header.find((h, i) => h !== "" && header.indexOf(h) !== i);
    if (twice) throw new ValidationError(`The column "${twice}" is named twice in the first line; keep one.`);
    const body = table.slice(1);
    if (body.length > CSV_IMPORT_MAX_ROWS) throw new ValidationError(`At most ${CSV_IMPORT_MAX_ROWS} rows per import; this file has more. Split it.`);
    return { header, body };
  } catch (err) {
    if (err instanceof CsvReadProblem) return { line: err.line, reason: err.reason };
    throw err;
  }
}

export async function importCsv(deps: ServiceDeps, actor: Actor, locationId: string, bytes: Uint8Array, dryRun: boolean): Promise<CsvImportResult> {
  const file = readFile(bytes);
  try {
    return await withActor(deps.db, actor, async (tx) => {
      const access = await locationAccess(tx, locationId);
      requireWriteRole(actor, access.role, "member", "Only members and above can import things.");
      if (!("header" in file)) return { dryRun, rows: 0, ok: 0, created: 0, placesCreated: 0, errors: [file] };
      const { ctx, places } = await loadContext(tx, locationId);
      const errors: Problem[] = [];
      const planned: PlannedRow[] = [];
      for (const row of file.body) {
        const plan = planRow(file.header, row, ctx);
        if (Array.isArray(plan)) errors.push({ line: row.line, reason: plan.join("; ") });
        else planned.push(plan);
      }

      // Places by path: existing ones are reused, missing ones made (parents first) by the first row needing them.
      const children = new Map<string, string>(); // `${parentId}/${name}` -> id
      for (const p of places) if (!p.is_unplaced) children.set(`${p.parent_id ?? ""}/${norm(p.name)}`, p.id);
      const unplacedName = places.find((p) => p.is_unplaced)?.name;
      const inputs: CommandInput[] = [];
      const made = new Map<string, { path: string }>(); // new place id -> its path
      const thingLines: { line: number; placeId: string | undefined }[] = [];
      const things: CommandInput[] = [];
      for (const r of planned) {
        // The export writes a thing in the location's Unplaced place with that place's name as its path.
        const path = r.path.length === 1 && unplacedName && norm(r.path[0]!) === norm(unplacedName) ? [] : r.path;
        let parent = "";
        path.forEach((name, i) => {
          const key = `${parent}/${norm(name)}`;
          let id = children.get(key);
          if (!id) {
            id = uuidv7();
            children.set(key, id);
            made.set(id, { path: path.slice(0, i + 1).join(" / ") });
            inputs.push({ name: "place.create", locationId, args: { id, name, parentId: parent || null } });
          }
          parent = id;
        });
        const placeId = parent || undefined;
        thingLines.push({ line: r.line, placeId });
        things.push({ name: "thing.create", locationId, args: { id: uuidv7(), ...r.args, ...(placeId ? { placeId } : {}) } });
      }
      const placeOps = inputs.length;
      inputs.push(...things);
      const verdicts = inputs.length ? await executeInTx(tx, actor, inputs, { undoWindowMs: deps.undoWindowMs }) : [];

      // Refusals by line. A refused place is told at each row under it (every made place has one:
      // the deepest place of a row's path is its thing's), its children carrying its reason.
      const placeRefused = new Map<string, string>();
      let placesMade = 0;
      verdicts.slice(0, placeOps).forEach((v, i) => {
        const { id, parentId } = inputs[i]!.args as { id: string; parentId: string | null };
        if (v.status === "applied") return void placesMade++;
        const inherited = v.error instanceof DependsOnDroppedError && parentId ? placeRefused.get(parentId) : undefined;
        placeRefused.set(id, inherited ?? `the place "${made.get(id)!.path}" cannot be made: ${v.error.message}`);
      });
      let ok = 0;
      verdicts.slice(placeOps).forEach((v, i) => {
        const { line, placeId } = thingLines[i]!;
        if (v.status === "applied") return void ok++;
        const placeWhy = placeId ? placeRefused.get(placeId) : undefined;
        errors.push({ line, reason: placeWhy && v.error instanceof DependsOnDroppedError ? placeWhy : v.error.message });
      });
      errors.sort((a, b) => a.line - b.line);

      const result: CsvImportResult = { dryRun, rows: file.body.length, ok, created: ok, placesCreated: placesMade, errors };
      if (dryRun) throw new RollBack({ ...result, created: 0 });
      if (errors.length) throw new RollBack({ ...result, created: 0, placesCreated: 0 });
      return result;
    });
  } catch (err) {
    if (err instanceof RollBack) return err.result;
    throw err;
  }
}
