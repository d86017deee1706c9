/**
 * An audit entry in words (shared/audit.ts): "You made the personal token “CI”", "Sam revoked the
 * share link of Drill", "Hana joined Garden Shed as viewer". The verb is said of "you" when the
 * reader acted, else of the person by name (or "Someone" the reader no longer knows); a revocation
 * the service made itself has its own line.
 */
import type { AuditEntry } from "../../shared/audit.js";
import { isMessageKey, type I18n, type MessageKey } from "./i18n/i18n.js";

export function auditLine({ t, lang }: Pick<I18n, "t" | "lang">, entry: AuditEntry): string {
  const p = entry.params;
  const word = (key: string, fallback: string) => (isMessageKey(key) ? t(key) : fallback);
  const role = p.role ? word(`role.${p.role}`, p.role) : "";
  const params = {
    ...(Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as Record<string, string>),
    actor: entry.actor.name ?? t("audit.someone"),
    target: p.target || t("audit.aView"),
    provider: p.provider ? word(`ai.provider.${p.provider}`, p.provider) : "",
    scope: p.scope && entry.action.startsWith("ai_key.") ? word(`audit.scope.${p.scope}`, p.scope) : (p.scope ?? ""),
    // "as viewer" mid-sentence in English; Arabic has no capitals.
    role: lang === "en" ? role.toLowerCase() : role,
    location: p.location ?? "",
  };
  if (entry.action === "member.joined") return t("audit.member.joined", params);
  const system = `audit.system.${entry.action}`;
  if (entry.actor.type === "system" && isMessageKey(system)) return t(system, params);
  return t(`audit.${entry.actor.you ? "you" : "other"}.${entry.action}` as MessageKey, params);
}
