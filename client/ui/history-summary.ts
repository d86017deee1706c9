/**
 * A history entry's summary in the reader's language, written from the summaryKey and
 * summaryParams the server stored (the server's own `summary` is English, for API readers).
 * Params that are words of ours (a role) are translated, quantities take the reader's digits, and an
 * empty param reads as "a thing" or "someone". A key the app does not know yet (a newer server)
 * shows the server's English summary.
 */
import type { HistoryEntry } from "../../shared/history.js";
import { isMessageKey, type I18n, type MessageKey } from "./i18n/i18n.js";

const ROLES = new Set(["owner", "admin", "member", "viewer"]);
/** Params that hold a role. */
const ROLE_PARAMS = new Set(["role", "from", "to"]);
/** Params that hold a number the server wrote as text (a decimal quantity, a box's number). */
const NUMBER_PARAMS = new Set(["quantity", "box"]);
/** Every placeholder of the history.summary.* messages (history.ts). */
const SUMMARY_PARAMS = ["name", "from", "to", "role", "into", "mergedFromName", "field", "fields", "value", "code", "box", "quantity", "person"];
const STAND_INS: Record<string, MessageKey> = {
  name: "history.someone.name",
  into: "history.someone.name",
  mergedFromName: "history.someone.name",
  person: "history.someone.person",
  field: "history.someone.field",
  quantity: "history.someone.quantity",
};

function param(name: string, value: string, { t, num }: Pick<I18n, "t" | "num">): string {
  if (!value) return t(STAND_INS[name] ?? "history.someone.other");
  if (ROLE_PARAMS.has(name) && ROLES.has(value)) return t(`role.${value}` as MessageKey);
  if (NUMBER_PARAMS.has(name) && /^-?\d+(\.\d+)?$/.test(value)) return num(Number(value));
  return value;
}

export function historySummary(h: Pick<HistoryEntry, "summary" | "summaryKey" | "summaryParams">, i18n: Pick<I18n, "t" | "num">): string {
  const key = `history.summary.${h.summaryKey}`;
  if (!isMessageKey(key)) return h.summary;
  // Every placeholder the summaries read gets a value, even one the entry never stored.
  const stored = { ...Object.fromEntries(SUMMARY_PARAMS.map((name) => [name, ""])), ...h.summaryParams };
  return i18n.t(key, Object.fromEntries(Object.entries(stored).map(([name, value]) => [name, param(name, value, i18n)])));
}

/** Who made the change: "System" in the reader's language for the service's own entries. */
export const historyActor = (h: Pick<HistoryEntry, "actor">, { t }: Pick<I18n, "t">): string =>
  h.actor.type === "system" ? t("history.actor.system") : h.actor.displayName;
