/**
 * How AI extraction reads on screen, in the person's language and digits: an extraction's status in
 * words, one AI call's line (model, tokens, images, cost or why there is none, outcome, who paid),
 * AI money, and the label and value of a suggested field. Plain functions (no JSX), so unit tests
 * import them as they are.
 */
import type { AiCallRecord, AiCost, AiOutcome, ProviderKind } from "../../shared/ai.js";
import type { ExtractionStatus, FieldStatus } from "../../shared/extractions.js";
import { EXTRACTABLE_COLUMNS } from "../../shared/extractions.js";
import { formatFieldValue } from "./field-format.js";
import type { FieldDef } from "./field-values.js";
import type { I18n, MessageKey } from "./i18n/i18n.js";
import { fieldLabel } from "./names.js";
import { decimalText } from "../features/meters/MeterFormat.js";

export type AiFmt = Pick<I18n, "t" | "num" | "lang" | "digits" | "dateTime">;

/**
 * A name from elsewhere (a model, a payer's label) isolated from the sentence around it, so
 * "gpt-4o-mini" keeps its order inside an Arabic line (Unicode FSI … PDI, as <bdi> does).
 */
export const isolate = (s: string) => `\u2068${s}\u2069`;

const locale = (f: Pick<I18n, "lang" | "digits">) => (f.lang === "ar" ? `ar-u-nu-${f.digits}` : "en");

/**
 * "$0.0042" (or "‏٠٫٠٠٤٢ US$"): an AI amount with every decimal it has (calls cost fractions of a
 * cent), at least the currency's usual ones, trailing zeros of the stored numeric(18,8) dropped.
 */
export function aiMoney(cost: AiCost, f: Pick<I18n, "lang" | "digits" | "num">): string {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(cost.amount);
  if (!m) return `${cost.amount} ${cost.currency}`;
  const frac = (m[2] ?? "").replace(/0+$/, "");
  try {
    const usual = new Intl.NumberFormat("en", { style: "currency", currency: cost.currency }).resolvedOptions().minimumFractionDigits ?? 2;
    return new Intl.NumberFormat(locale(f), {
      style: "currency",
      currency: cost.currency,
      minimumFractionDigits: usual,
      maximumFractionDigits: Math.max(usual, Math.min(frac.length, 8)),
    }).format(Number(`${m[1]}.${frac || "0"}`));
  } catch {
    // A currency code the browser does not know: the amount in the person's digits, then the code.
    return `${decimalText(cost.amount, f)} ${cost.currency}`;
  }
}

/** "85%" in the person's digits. */
export function percentText(confidence: number, f: Pick<I18n, "lang" | "digits">): string {
  return new Intl.NumberFormat(locale(f), { style: "percent", maximumFractionDigits: 0 }).format(confidence);
}

export const providerName = (kind: ProviderKind, t: I18n["t"]) => t(`ai.provider.${kind}`);

/** A reason a server gave (an outcome code, or its own short text) in words where we know it. */
function reasonText(reason: string, t: I18n["t"]): string {
  // `key_refused:<scope>:<status>`: whose key the provider refused, and with which HTTP status.
  const refused = /^key_refused:(user|account|instance):(\d{3})$/.exec(reason);
  if (refused) return t(`ai.keyRefused.${refused[1] as "user" | "account" | "instance"}`, { status: isolate(refused[2]!) });
  const key = `ai.outcome.${reason}` as MessageKey;
  return t(key) === key ? isolate(reason) : t(key);
}

/** What an extraction is doing, in a sentence ("Paused: the AI budget is used up until 1 Dec 2026, 00:00."). */
export function extractionStatusText(
  ex: { status: ExtractionStatus; statusReason?: string | null | undefined; pausedUntil?: string | null | undefined },
  f: AiFmt,
): string {
  switch (ex.status) {
    case "failed":
      return ex.statusReason ? f.t("ai.status.failed", { reason: reasonText(ex.statusReason, f.t) }) : f.t("ai.status.failedPlain");
    case "paused_budget":
      return ex.pausedUntil ? f.t("ai.status.paused_budget", { date: f.dateTime(ex.pausedUntil) }) : f.t("ai.status.paused_budgetPlain");
    default:
      return f.t(`ai.status.${ex.status}`);
  }
}

/**
 * One AI call as the parts of a line: what it was for (when the task is known), the model, tokens
 * and images, the cost or why there is none, the outcome when it did not end well, and who paid.
 */
export function aiCallParts(call: AiCallRecord & { task?: string }, f: Pick<I18n, "t" | "num" | "lang" | "digits">): string[] {
  const { t } = f;
  const parts: string[] = [];
  if (call.task) {
    const key = `ai.task.${call.task}` as MessageKey;
    if (t(key) !== key) parts.push(t(key));
  }
  parts.push(t("ai.model", { model: isolate(call.model) }), t("ai.tokens", { count: call.tokens }), t("ai.images", { count: call.images }));
  // A cost when there is one; otherwise why not ("priced later", "cost unknown", "not sent").
  parts.push(call.cost ? t("ai.cost", { cost: aiMoney(call.cost, f) }) : t(`ai.costSource.${call.costSource}`));
  if (call.outcome !== "ok") parts.push(t("ai.ended", { outcome: outcomeText(call.outcome, t) }));
  parts.push(call.paidBy.mine ? t("ai.paidByYou") : t("ai.paidBy", { name: isolate(call.paidBy.label) }));
  return parts;
}

export const outcomeText = (outcome: AiOutcome, t: I18n["t"]) => t(`ai.outcome.${outcome}`);

/** The definitions of custom fields as a suggestion's label and value need them. */
export type SuggestedFieldDef = FieldDef & { label: string | null; labelKey: string | null };

/** A field key's label: the thing's columns by name, custom fields (`fields.<key>`) as the type calls them. */
export function fieldKeyLabel(key: string, defs: readonly SuggestedFieldDef[], t: I18n["t"]): string {
  switch (key) {
    case "name":
      return t("thing.name");
    case "quantity":
      return t("thing.quantity");
    case "description":
    case "model":
    case "serial":
    case "colour":
      return t(`ai.column.${key}`);
  }
  const custom = key.startsWith("fields.") ? key.slice("fields.".length) : key;
  const def = defs.find((d) => d.key === custom);
  return def ? fieldLabel(def, t) : custom;
}

/** A field's value (current or suggested) as text: custom fields as their kind reads, quantity as a number. */
export function fieldKeyValue(key: string, value: unknown, defs: readonly SuggestedFieldDef[], f: Pick<I18n, "t" | "num" | "lang" | "digits">): string {
  if (value === null || value === undefined || value === "") return "";
  if (key === "quantity" && (typeof value === "string" || typeof value === "number")) return decimalText(String(value), f);
  if (key.startsWith("fields.")) {
    const def = defs.find((d) => d.key === key.slice("fields.".length));
    if (def) return formatFieldValue(def, value, f);
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * The fields waiting for a person: those with suggestions, and `extracted` values not confirmed
 * yet. Columns first (in the contract's order), then custom fields in the type's order.
 */
export function fieldsToReview(status: FieldStatus | undefined, defs: readonly Pick<SuggestedFieldDef, "key">[]): string[] {
  const keys = Object.entries(status ?? {})
    .filter(([, e]) => (e.suggestions?.length ?? 0) > 0 || e.state === "extracted")
    .map(([k]) => k);
  const rank = (k: string) => {
    const col = (EXTRACTABLE_COLUMNS as readonly string[]).indexOf(k);
    if (col >= 0) return col;
    const i = defs.findIndex((d) => `fields.${d.key}` === k);
    return EXTRACTABLE_COLUMNS.length + (i >= 0 ? i : defs.length);
  };
  return keys.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
