/**
 * The single input of one custom field value, by kind: what FieldInput draws once, or once per row
 * of a repeatable field.
 */
import type { TypeFieldRow } from "../../db/rows.js";
import { maxLengthOf, type Draft } from "../../ui/field-values.js";
import { useI18n } from "../../ui/i18n/i18n.js";

/** Currencies offered first (any ISO 4217 code can be typed). */
export const CURRENCIES = ["EUR", "USD", "GBP", "SAR", "AED", "EGP", "JOD", "KWD", "QAR", "MAD", "TRY", "CHF", "JPY", "CNY", "INR"];
export const CURRENCY_LIST_ID = "currency-codes";

export interface FileChoice {
  id: string;
  label: string;
}

export type Def = Pick<TypeFieldRow, "id" | "key" | "kind" | "label" | "labelKey" | "options" | "repeatable" | "required" | "secret" | "unit">;

export function FieldOne({
  def,
  label,
  draft,
  onChange,
  personListId,
  files,
}: {
  def: Def;
  /** The accessible name of this input. */
  label: string;
  draft: Draft;
  onChange: (d: Draft) => void;
  personListId: string | undefined;
  files: FileChoice[];
}) {
  const { t } = useI18n();
  const text = typeof draft === "string" ? draft : "";
  const common = { "aria-label": label, "aria-required": def.required || undefined } as const;
  if (def.secret)
    return (
      <input
        type="password"
        autoComplete="new-password"
        placeholder={t("fields.secretPlaceholder")}
        value={text}
        onChange={(e) => onChange(e.target.value)}
        {...common}
      />
    );
  switch (def.kind) {
    case "date":
      return <input type="date" value={text} onChange={(e) => onChange(e.target.value)} {...common} />;
    case "number":
      return <input inputMode="decimal" value={text} onChange={(e) => onChange(e.target.value)} {...common} />;
    case "url":
      return <input inputMode="url" autoComplete="url" dir="ltr" value={text} onChange={(e) => onChange(e.target.value)} {...common} />;
    case "person":
      return (
        <input list={personListId} autoComplete="off" maxLength={maxLengthOf(def.kind)} value={text} onChange={(e) => onChange(e.target.value)} {...common} />
      );
    case "boolean":
      return (
        <select value={text} onChange={(e) => onChange(e.target.value)} {...common}>
          <option value="">—</option>
          <option value="true">{t("fields.yes")}</option>
          <option value="false">{t("fields.no")}</option>
        </select>
      );
    case "select":
      return (
        <select value={text} onChange={(e) => onChange(e.target.value)} {...common}>
          <option value="">—</option>
          {(def.options ?? []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
    case "file":
      return (
        <select value={text} onChange={(e) => onChange(e.target.value)} {...common}>
          <option value="">—</option>
          {files.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
            </option>
          ))}
          {text && !files.some((f) => f.id === text) ? <option value={text}>{t("fields.aFile")}</option> : null}
        </select>
      );
    case "money": {
      const m = typeof draft === "object" && !Array.isArray(draft) ? draft : { amount: "", currency: "" };
      return (
        <span className="money">
          <input
            inputMode="decimal"
            aria-label={t("fields.amountOf", { label })}
            aria-required={def.required || undefined}
            value={m.amount}
            onChange={(e) => onChange({ ...m, amount: e.target.value })}
          />
          <input
            className="currency"
            list={CURRENCY_LIST_ID}
            maxLength={3}
            autoCapitalize="characters"
            autoComplete="off"
            dir="ltr"
            aria-label={t("fields.currencyOf", { label })}
            placeholder="EUR"
            value={m.currency}
            onChange={(e) => onChange({ ...m, currency: e.target.value.toUpperCase() })}
          />
        </span>
      );
    }
    default:
      return <input autoComplete="off" maxLength={maxLengthOf(def.kind)} value={text} onChange={(e) => onChange(e.target.value)} {...common} />;
  }
}
