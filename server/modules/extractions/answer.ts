/**
 * What an extraction asks the model for, built from the thing's type: a JSON schema with one
 * entry per field the photos might show (the thing's own columns and the type's custom fields),
 * each `{value, confidence, photo}`; and how an answer becomes values a field may hold.
 *
 * Secret fields are never asked for: their values must not travel to a provider. File fields and
 * repeatable fields are left out too (a photo cannot name an uploaded file; lists are rare on a
 * label). Every answered value is checked by the same rule a person's value meets
 * (`fieldValueProblem`); one that fails is dropped, the others stand.
 */
import { z } from "zod";
import type { EXTRACTABLE_COLUMNS } from "../../../shared/extractions.js";
import { fieldValueProblem, type EffectiveField } from "../types/fields.js";

type Column = (typeof EXTRACTABLE_COLUMNS)[number];

export interface AskedField {
  /** The field key as fieldStatus names it: a column, or `fields.<key>`. */
  key: string;
  label: string;
  schema: z.ZodType;
  /** null: the value is fine as the schema parsed it; else why it cannot be stored. */
  problem(value: unknown): string | null;
}

const COLUMN_FIELDS: { key: Column; label: string; schema: z.ZodType; problem(v: unknown): string | null }[] = [
  { key: "name", label: "What the thing is, as a person would name it (e.g. 'Cordless drill')", schema: z.string(), problem: text(200) },
  { key: "description", label: "A short description of what the photos show", schema: z.string(), problem: text(2000) },
  { key: "model", label: "Model name or number as printed", schema: z.string(), problem: text(200) },
  { key: "serial", label: "Serial number as printed", schema: z.string(), problem: text(200) },
  { key: "colour", label: "Main colour", schema: z.string(), problem: text(100) },
  {
    key: "quantity",
    label: "How many of the thing the photos show",
    schema: z.number(),
    problem: (v) => (typeof v === "number" && Number.isFinite(v) && v > 0 && v < 1e9 ? null : "must be a positive number"),
  },
];

function text(max: number) {
  return (v: unknown) => (typeof v === "string" && v.trim().length > 0 && v.length <= max ? null : `must be text of 1 to ${max} characters`);
}

/** The JSON type of a custom field's value, or null when an extraction does not ask for it. */
function customSchema(f: EffectiveField["field"]): z.ZodType | null {
  if (f.secret || f.kind === "file" || (f.repeatable && f.kind !== "multi_select")) return null;
  switch (f.kind) {
    case "text":
    case "url":
    case "person":
    case "vendor":
    case "date":
      return z.string();
    case "number":
      return z.number();
    case "boolean":
      return z.boolean();
    case "select":
      return f.options?.length ? z.enum(f.options as [string, ...string[]]) : null;
    case "multi_select":
      return z.array(z.string());
    case "money":
      return z.object({ amount: z.string(), currency: z.string() });
  }
}

/** The fields an extraction of a thing of this type asks for. */
export function askedFields(defs: ReadonlyMap<string, EffectiveField>): AskedField[] {
  const out: AskedField[] = COLUMN_FIELDS.map((c) => ({ ...c }));
  for (const [key, def] of defs) {
    const f = def.field;
    const schema = customSchema(f);
    if (!schema) continue;
    const label = [
      f.label ?? key,
      f.kind === "date" ? "(YYYY-MM-DD)" : "",
      f.unit ? `(in ${f.unit})` : "",
      f.kind === "money" ? "(amount as a decimal string, ISO 4217 currency)" : "",
    ]
      .filter(Boolean)
      .join(" ");
    out.push({ key: `fields.${key}`, label, schema, problem: (v) => fieldValueProblem(f, v) });
  }
  return out;
}

/**
 * The answer's schema. Every entry is required and nullable (structured-output modes of several
 * providers refuse optional properties); custom fields sit in their own object so a custom key can
 * never collide with a column.
 */
export function answerSchema(fields: AskedField[]) {
  const entry = (f: AskedField) =>
    z
      .object({
        value: f.schema.nullable(),
        confidence: z.number().describe("0 to 1: how sure the photos make you"),
        photo: z.number().int().nullable().describe("Which photo (1, 2, ...) shows it"),
      })
      .describe(f.label);
  const columns: Record<string, z.ZodType> = {};
  const custom: Record<string, z.ZodType> = {};
  for (const f of fields) {
    if (f.key.startsWith("fields.")) custom[f.key.slice(7)] = entry(f);
    else columns[f.key] = entry(f);
  }
  return z.object({ ...columns, custom: z.object(custom) });
}

export type Answer = z.infer<ReturnType<typeof answerSchema>>;

export interface ReadValue {
  key: string;
  value: unknown;
  confidence: number;
  /** Index into the photos sent (0-based), when the model said which. */
  photo: number | null;
}

type Entry = { value: unknown; confidence: number; photo: number | null } | undefined;

/** The answered values that a field may hold, with confidences clamped to 0..1; the rest dropped. */
export function readAnswer(fields: AskedField[], answer: Record<string, unknown>, photos: number): ReadValue[] {
  const custom = (answer.custom ?? {}) as Record<string, Entry>;
  const out: ReadValue[] = [];
  for (const f of fields) {
    const e = (f.key.startsWith("fields.") ? custom[f.key.slice(7)] : (answer[f.key] as Entry)) ?? undefined;
    if (!e || e.value === null || e.value === undefined) continue;
    const raw = typeof e.value === "string" ? e.value.trim() : e.value;
    if (f.problem(raw)) continue;
    // A quantity is a decimal string on the thing; the model answers a number.
    const value = typeof raw === "number" && f.key === "quantity" ? String(raw) : raw;
    const confidence = Number.isFinite(e.confidence) ? Math.min(1, Math.max(0, e.confidence)) : 0;
    const photo = e.photo !== null && Number.isInteger(e.photo) && e.photo >= 1 && e.photo <= photos ? e.photo - 1 : null;
    out.push({ key: f.key, value, confidence, photo });
  }
  return out;
}

export const SYSTEM_PROMPT =
  "You read photos of one household item for a home inventory. For each field, give the value the photos show, " +
  "or null when they do not show it; never guess a serial or model number that is not legible. " +
  "Confidence is 0 to 1. Text in the photos may be in any language; keep names as printed.";

export function promptFor(typeName: string, photos: number): string {
  return `The item is catalogued as: ${typeName}. ${photos === 1 ? "One photo" : `${photos} photos`} follow${photos === 1 ? "s" : ""}. Fill in the fields.`;
}
