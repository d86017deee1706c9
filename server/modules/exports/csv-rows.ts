/**
 * The rows of an imported CSV as thing.create args: each cell read into the value its column takes
 * (a field's kind, money as people write it), or the row's problems in plain words. Only the
 * reading is done here; whether the values fit (a select's options, a required field, a date) is
 * the write core's check, the same one every other write passes, run on the whole import.
 */
import { isWellFormedText } from "../../../shared/text.js";
import type { EffectiveField } from "../types/fields.js";
import { readFormulaSafe } from "./csv.js";
import { readMoney } from "./csv-money.js";
import type { CsvRow } from "./csv-read.js";

/** Longest cell taken (a text field keeps 4,000 characters); the export's `fields` column may hold a whole record. */
export const MAX_CELL_CHARS = 10_000;
const MAX_FIELDS_CELL_CHARS = 100_000;

/** What the import needs to know of the location. */
export interface ImportContext {
  /** Live, non-group types by lower-cased name and built-in key. */
  typeByName: Map<string, string>;
  defaultTypeId: string | undefined;
  fieldsOf(typeId: string): Map<string, EffectiveField>;
  /** The account's live brands by lower-cased name. */
  brandByName: Map<string, string>;
  /** The currency the location's money is in, for amounts written without one. */
  currency: string | null;
}

export interface PlannedRow {
  line: number;
  /** The place path, top first ("House / Kitchen" is ["House", "Kitchen"]). */
  path: string[];
  args: {
    name: string;
    quantity: string;
    typeId?: string;
    brandId?: string;
    lifecycle?: string;
    condition?: string;
    model?: string;
    serial?: string;
    fields?: Record<string, unknown>;
  };
}

export const norm = (s: string) => s.trim().toLowerCase();
/** Columns the import reads itself; any other names a field of the row's type. */
const KNOWN = new Set(["name", "quantity", "place", "type", "brand", "lifecycle", "condition", "model", "serial", "fields"]);
/** The export's own bookkeeping columns: a restored thing gets a new id in the location it is imported into. */
const IGNORED = new Set(["id", "location_id"]);

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;

/** A field's value from its cell, in the shape the field's kind takes; a string is a problem. */
function fieldValue(col: string, def: EffectiveField, value: string, ctx: ImportContext): { value: unknown } | string {
  const { field } = def;
  if (field.secret) return `"${col}" is a secret field; secret values are not imported from CSV`;
  let v: unknown = value;
  if (field.kind === "number") {
    if (!NUMBER.test(value)) return `"${col}" needs a number, not "${value}"`;
    v = Number(value);
  } else if (field.kind === "boolean") {
    if (!/^(true|false|yes|no|1|0)$/i.test(value)) return `"${col}" needs true or false, not "${value}"`;
    v = /^(true|yes|1)$/i.test(value);
  } else if (field.kind === "money") {
    const m = readMoney(value, ctx.currency);
    if ("problem" in m) return `"${col}": ${m.problem}`;
    v = m.value;
  } else if (field.kind === "multi_select")
    v = value
      .split(";")
      .map((s) => s.trim())
      .filter(Boolean);
  if (field.repeatable && field.kind !== "multi_select") v = [v];
  return { value: v };
}

/** The export's `fields` column: a JSON object of field values, taken as they are. */
function fieldsCell(value: string): Record<string, unknown> | string {
  try {
    const parsed: unknown = JSON.parse(value);
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    /* said below */
  }
  return '"fields" must be a JSON object of field values, as an export writes it';
}

/** A row's problems as the answer lists them: the first few, and how many more (a row of 5,000 bad columns stays readable). */
const MAX_PROBLEMS = 5;
const listed = (problems: string[]) => {
  const distinct = [...new Set(problems)];
  return distinct.length > MAX_PROBLEMS ? [...distinct.slice(0, MAX_PROBLEMS), `and ${distinct.length - MAX_PROBLEMS} more problems`] : distinct;
};

/** One row's args, or its problems. `header` is lower-cased and trimmed. */
export function planRow(header: string[], row: CsvRow, ctx: ImportContext): PlannedRow | string[] {
  const problems: string[] = [];
  // The export put an apostrophe before cells a spreadsheet would run as formulas: taken off here.
  const cells = header.map((_, c) => readFormulaSafe(row.cells[c] ?? "").trim());
  row.cells.slice(header.length).forEach((extra) => {
    if (extra.trim()) problems.push(`has more cells than the first line has column names`);
  });
  cells.forEach((value, c) => {
    const col = header[c]!;
    if (value.length > (col === "fields" ? MAX_FIELDS_CELL_CHARS : MAX_CELL_CHARS))
      problems.push(`"${col}" is longer than ${col === "fields" ? MAX_FIELDS_CELL_CHARS : MAX_CELL_CHARS} characters`);
    else if (!isWellFormedText(value)) problems.push(`"${col}" holds a NUL character, which cannot be kept`);
  });
  if (problems.length) return listed(problems);
  const get = (col: string) => cells[header.indexOf(col)] ?? "";

  const name = get("name");
  if (!name) problems.push("name is empty");
  else if (name.length > 200) problems.push("name is longer than 200 characters");
  const q = get("quantity");
  const quantity = q === "" ? 1 : NUMBER.test(q.replace(",", ".")) ? Number(q.replace(",", ".")) : NaN;
  if (!Number.isFinite(quantity) || quantity <= 0 || quantity >= 1e11) problems.push(`quantity "${q}" is not a number above zero (and below 100000000000)`);
  const typeText = get("type");
  const typeId = typeText ? ctx.typeByName.get(norm(typeText)) : undefined;
  if (typeText && !typeId) problems.push(`no type named "${typeText}"`);
  const brandText = get("brand");
  const brandId = brandText ? ctx.brandByName.get(norm(brandText)) : undefined;
  if (brandText && !brandId) problems.push(`no brand named "${brandText}"`);
  const defsOf = typeId ?? ctx.defaultTypeId;
  const defs = defsOf ? ctx.fieldsOf(defsOf) : new Map<string, EffectiveField>();

  let fields: Record<string, unknown> = {};
  if (get("fields")) {
    const all = fieldsCell(get("fields"));
    if (typeof all === "string") problems.push(all);
    else fields = all;
  }
  cells.forEach((value, c) => {
    const col = header[c]!;
    if (KNOWN.has(col) || IGNORED.has(col) || value === "") return;
    const def = defs.get(col);
    if (!col) return void problems.push("a column with no name in the first line holds a value; name the column or empty it");
    if (!def) return void problems.push(`column "${col}" is not a field of ${typeText ? `type "${typeText}"` : "the default type"}`);
    const read = fieldValue(col, def, value, ctx);
    if (typeof read === "string") problems.push(read);
    else fields[col] = read.value;
  });

  const path = get("place")
    .split("/")
    .map((p) => p.trim())
    .filter(Boolean);
  if (path.some((p) => p.length > 120)) problems.push("a place name is longer than 120 characters");
  if (problems.length) return listed(problems);
  const text = (col: string) => (get(col) ? { [col]: get(col) } : {});
  return {
    line: row.line,
    path,
    args: {
      name,
      quantity: String(quantity),
      ...(typeId ? { typeId } : {}),
      ...(brandId ? { brandId } : {}),
      ...text("lifecycle"),
      ...text("condition"),
      ...text("model"),
      ...text("serial"),
      ...(Object.keys(fields).length ? { fields } : {}),
    },
  };
}
