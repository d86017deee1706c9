/**
 * Custom field values between the form and the wire, by kind: what an input shows for a stored
 * value (`toDraft`), and the value a filled input stands for (`fromDraft`), in the forms the server
 * checks (server/modules/types/fields.ts): dates `YYYY-MM-DD`, money `{amount: "12.50", currency:
 * "EUR"}`, multi_select a list of options, a repeatable field a list of values. Pure: no React.
 */
import type { FieldKind } from "../../shared/fields.js";
import type { TypeFieldRow } from "../db/rows.js";

export type FieldDef = Pick<TypeFieldRow, "key" | "kind" | "options" | "repeatable" | "required" | "secret" | "unit">;

/** What one input holds: text for most kinds, a list for multi_select, amount and currency for money. */
export type Draft = string | string[] | { amount: string; currency: string };
/** A field's inputs: one draft, or one per row of a repeatable field. */
export type FieldDraft = Draft | Draft[];

export type Parsed = { ok: true; value: unknown } | { ok: false; error: FieldProblem };
/** Message keys (client/ui/i18n) of what is wrong with an input. */
export type FieldProblem =
  | "fields.problem.number"
  | "fields.problem.date"
  | "fields.problem.url"
  | "fields.problem.money"
  | "fields.problem.currency"
  | "fields.problem.option"
  | "fields.problem.required";

/** A field whose kind takes a list of values (apart from multi_select's own list). */
export const isRepeated = (f: Pick<FieldDef, "kind" | "repeatable">) => f.repeatable && f.kind !== "multi_select";

const EASTERN = "٠١٢٣٤٥٦٧٨٩";
const PERSIAN = "۰۱۲۳۴۵۶۷۸۹";
/** Digits as typed on an Arabic keyboard become western ones; the Arabic decimal separator a dot. */
export function westernDigits(s: string): string {
  return s.replace(/[٠-٩۰-۹]/g, (d) => String(EASTERN.includes(d) ? EASTERN.indexOf(d) : PERSIAN.indexOf(d))).replace(/[٫,]/g, ".");
}

const DECIMAL = /^-?\d{1,15}(\.\d{1,6})?$/;

/** ISO 4217 codes the runtime knows (the server checks against its own list the same way). */
const KNOWN_CURRENCIES: ReadonlySet<string> | null = (() => {
  try {
    return new Set(Intl.supportedValuesOf("currency"));
  } catch {
    return null;
  }
})();
export const isCurrency = (c: string) => /^[A-Z]{3}$/.test(c) && (!KNOWN_CURRENCIES || KNOWN_CURRENCIES.has(c));

/** Longest text the server takes: a person's or vendor's name, any other text. */
export const maxLengthOf = (kind: FieldKind) => (kind === "person" || kind === "vendor" ? 200 : 4000);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A decimal as typed ("1,5", "١٢٫٥", " 12 ") in the canonical form ("1.5", "12.5"), or null. */
export function parseDecimal(input: string): string | null {
  const s = westernDigits(input.trim()).replace(/\s+/g, "");
  if (!DECIMAL.test(s)) return null;
  const [int = "", frac] = s.split(".");
  const sign = int.startsWith("-") ? "-" : "";
  const digits = int.replace("-", "").replace(/^0+(?=\d)/, "");
  const f = frac?.replace(/0+$/, "");
  return `${sign}${digits}${f ? `.${f}` : ""}`;
}

/** A scalar as text (numbers, booleans); anything else as JSON, never "[object Object]". */
export const scalarText = (v: unknown): string =>
  typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : v === null || v === undefined ? "" : JSON.stringify(v);

const emptyDraft = (kind: FieldKind): Draft => (kind === "multi_select" ? [] : kind === "money" ? { amount: "", currency: "" } : "");

function oneToDraft(kind: FieldKind, v: unknown): Draft {
  if (v === null || v === undefined) return emptyDraft(kind);
  switch (kind) {
    case "multi_select":
      return Array.isArray(v) ? v.map(scalarText) : [scalarText(v)];
    case "money": {
      const m = v as { amount?: unknown; currency?: unknown };
      return typeof m === "object" ? { amount: scalarText(m.amount), currency: scalarText(m.currency) } : emptyDraft(kind);
    }
    case "boolean":
      return v === true ? "true" : v === false ? "false" : "";
    default:
      return typeof v === "string" || typeof v === "number" ? String(v) : "";
  }
}

/** The inputs of a stored value (a repeatable field: one row per value, at least one). */
export function toDraft(f: FieldDef, value: unknown): FieldDraft {
  if (!isRepeated(f)) return oneToDraft(f.kind, value);
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return list.length ? list.map((v) => oneToDraft(f.kind, v)) : [emptyDraft(f.kind)];
}

/** Nothing entered (money: no amount, whatever the currency says). */
const isEmpty = (d: Draft) => (Array.isArray(d) ? d.length === 0 : typeof d === "string" ? d.trim() === "" : d.amount.trim() === "");

function oneFromDraft(f: FieldDef, d: Draft): Parsed {
  switch (f.kind) {
    case "multi_select": {
      const list = Array.isArray(d) ? d : [];
      return list.every((o) => (f.options ?? []).includes(o)) ? { ok: true, value: list } : { ok: false, error: "fields.problem.option" };
    }
    case "money": {
      const m = typeof d === "object" && !Array.isArray(d) ? d : { amount: String(d), currency: "" };
      const amount = parseDecimal(m.amount);
      if (amount === null) return { ok: false, error: "fields.problem.money" };
      const currency = m.currency.trim().toUpperCase();
      if (!isCurrency(currency)) return { ok: false, error: "fields.problem.currency" };
      return { ok: true, value: { amount, currency } };
    }
    default:
      break;
  }
  const s = (typeof d === "string" ? d : "").trim();
  switch (f.kind) {
    case "number": {
      const n = parseDecimal(s);
      return n === null ? { ok: false, error: "fields.problem.number" } : { ok: true, value: Number(n) };
    }
    case "date":
      return DATE.test(s) && !Number.isNaN(Date.parse(s)) ? { ok: true, value: s } : { ok: false, error: "fields.problem.date" };
    case "boolean":
      return { ok: true, value: s === "true" };
    case "select":
      return (f.options ?? []).includes(s) ? { ok: true, value: s } : { ok: false, error: "fields.problem.option" };
    case "url": {
      // People type "example.com": the server wants a whole http(s) address.
      const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(s) ? s : `https://${s}`;
      try {
        const u = new URL(withScheme);
        return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.includes(".")
          ? { ok: true, value: u.href }
          : { ok: false, error: "fields.problem.url" };
      } catch {
        return { ok: false, error: "fields.problem.url" };
      }
    }
    default:
      return { ok: true, value: s };
  }
}

/**
 * The value a field's inputs stand for: `undefined` when left empty (no value), or what is wrong.
 * A required field left empty is a problem only where `strict` (the thing page; Capture saves drafts).
 */
export function fromDraft(f: FieldDef, draft: FieldDraft, strict = false): { ok: true; value: unknown } | { ok: false; error: FieldProblem } {
  if (isRepeated(f)) {
    const rows = (Array.isArray(draft) ? (draft as Draft[]) : [draft as Draft]).filter((d) => !isEmpty(d));
    const values: unknown[] = [];
    for (const d of rows) {
      const p = oneFromDraft(f, d);
      if (!p.ok) return p;
      values.push(p.value);
    }
    if (!values.length) return strict && f.required ? { ok: false, error: "fields.problem.required" } : { ok: true, value: undefined };
    return { ok: true, value: values };
  }
  const d = draft as Draft;
  if (isEmpty(d)) {
    return strict && f.required ? { ok: false, error: "fields.problem.required" } : { ok: true, value: undefined };
  }
  return oneFromDraft(f, d);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * The `fields` of a thing.update patch: only the keys whose value changed, `null` for a value
 * cleared (the server merges by key), or the first field whose input is wrong.
 */
export function fieldsPatch(
  defs: readonly FieldDef[],
  before: Record<string, unknown>,
  drafts: Record<string, FieldDraft>,
  strict = true,
): { ok: true; patch: Record<string, unknown> } | { ok: false; key: string; error: FieldProblem } {
  const patch: Record<string, unknown> = {};
  for (const f of defs) {
    const draft = drafts[f.key];
    if (draft === undefined) continue;
    const p = fromDraft(f, draft, strict);
    if (!p.ok) return { ok: false, key: f.key, error: p.error };
    const next = p.value === undefined ? null : p.value;
    // A secret's value is never on the device: an empty input leaves it alone.
    if (f.secret && next === null) continue;
    if (!same(next, before[f.key])) patch[f.key] = next;
  }
  return { ok: true, patch };
}

/** Values for a new thing (no clearing: an empty input is no value). */
export function fieldsForCreate(
  defs: readonly FieldDef[],
  drafts: Record<string, FieldDraft>,
): { ok: true; fields: Record<string, unknown> } | { ok: false; key: string; error: FieldProblem } {
  const fields: Record<string, unknown> = {};
  for (const f of defs) {
    const draft = drafts[f.key];
    if (draft === undefined) continue;
    const p = fromDraft(f, draft);
    if (!p.ok) return { ok: false, key: f.key, error: p.error };
    if (p.value !== undefined) fields[f.key] = p.value;
  }
  return { ok: true, fields };
}

/**
 * A field key from its label: lower-case ASCII letters, digits and `_`, starting with a letter, at
 * most 40 characters (`^[a-z][a-z0-9_]{0,39}$`), not one of `taken` (a number is added). A label
 * with no Latin letter (Arabic) gets `field`.
 */
export function keyFromLabel(label: string, taken: Iterable<string> = []): string {
  const used = new Set(taken);
  let base = label
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^[^a-z]+/, "")
    .replace(/_+$/, "")
    .slice(0, 40)
    .replace(/_+$/, "");
  if (!base) base = "field";
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const key = `${base.slice(0, 40 - suffix.length).replace(/_+$/, "")}${suffix}`;
    if (!used.has(key)) return key;
  }
}

/** Options typed one per line (or comma-separated on one line): trimmed, empty and repeated ones dropped. */
export function parseOptions(text: string): string[] {
  const parts = text.includes("\n") ? text.split("\n") : text.split(",");
  return [...new Set(parts.map((p) => p.trim()).filter(Boolean))].map((p) => p.slice(0, 80)).slice(0, 100);
}
