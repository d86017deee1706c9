/** How a stored custom field value reads on the thing page, by kind, in the person's language. */
import { scalarText as text, type FieldDef } from "./field-values.js";
import type { I18n } from "./i18n/i18n.js";

type Fmt = Pick<I18n, "t" | "num" | "lang" | "digits">;

const locale = (f: Fmt) => (f.lang === "ar" ? `ar-u-nu-${f.digits}` : "en");

function one(def: FieldDef, v: unknown, f: Fmt, fileName: (id: string) => string | undefined): string {
  if (v === null || v === undefined || v === "") return "";
  switch (def.kind) {
    case "boolean":
      return v === true ? f.t("fields.yes") : v === false ? f.t("fields.no") : text(v);
    case "number": {
      const n = Number(v);
      const shown = Number.isFinite(n) ? f.num(n) : text(v);
      return def.unit ? `${shown} ${def.unit}` : shown;
    }
    case "date": {
      const d = new Date(`${text(v)}T00:00:00Z`);
      return Number.isNaN(d.getTime()) ? text(v) : new Intl.DateTimeFormat(locale(f), { dateStyle: "medium", timeZone: "UTC" }).format(d);
    }
    case "money": {
      const m = v as { amount?: unknown; currency?: unknown };
      if (typeof m !== "object" || m.amount === undefined) return text(v);
      const amount = Number(m.amount);
      let shown: string;
      try {
        shown = new Intl.NumberFormat(locale(f), { style: "currency", currency: text(m.currency) }).format(amount);
      } catch {
        shown = `${text(m.amount)} ${text(m.currency ?? "")}`.trim();
      }
      return def.unit ? `${shown} ${def.unit}` : shown;
    }
    case "multi_select":
      return Array.isArray(v) ? v.map(String).join(", ") : text(v);
    case "file":
      return fileName(text(v)) ?? f.t("fields.aFile");
    default:
      return typeof v === "string" ? v : JSON.stringify(v);
  }
}

/** The value as text (a repeatable field's values joined); "" when there is none. */
export function formatFieldValue(def: FieldDef, value: unknown, f: Fmt, fileName: (id: string) => string | undefined = () => undefined): string {
  if (Array.isArray(value) && def.kind !== "multi_select")
    return value
      .map((v) => one(def, v, f, fileName))
      .filter(Boolean)
      .join(" · ");
  return one(def, value, f, fileName);
}
