/** The AI provider form's fields as typed, and the body a save sends made from them (or what is wrong with them). */
import type { ProviderKind } from "../../../shared/ai.js";
import { aiAmountSchema, aiSettingsBody, type AiSettingsView } from "../../../shared/ai-settings.js";
import { westernDigits } from "../../ui/field-values.js";
import type { MessageKey } from "../../ui/i18n/i18n.js";

export interface Draft {
  kind: ProviderKind;
  model: string;
  apiKey: string;
  baseUrl: string;
  amount: string;
  currency: string;
  enabled: boolean;
}

/** The form's fields for a stored provider (the key never comes back: empty keeps it), or a new one's. */
export function draftOf(view: AiSettingsView | null): Draft {
  return {
    kind: view?.providerKind ?? "provider_a",
    model: view?.model ?? "",
    apiKey: "",
    baseUrl: view?.baseUrl ?? "",
    amount: view?.monthlyBudget?.amount ?? "",
    currency: view?.monthlyBudget?.currency ?? "USD",
    enabled: view?.enabled ?? true,
  };
}

/** The provider's status when a save was refused for the key (details.reason key_refused), else null. */
export function keyRefusedStatus(details: unknown): number | null {
  const d = details && typeof details === "object" ? (details as { reason?: unknown; providerStatus?: unknown }) : {};
  return d.reason === "key_refused" && typeof d.providerStatus === "number" ? d.providerStatus : null;
}

/**
 * The body a save sends, or what is wrong: a message key for a field a person can fix, else the
 * schema's own words. `check` asks the server to try a new key with the provider before storing it.
 */
export function draftBody(d: Draft, check: boolean): { body: unknown } | { problem: MessageKey } | { invalid: string } {
  const amount = westernDigits(d.amount.trim());
  const currency = d.currency.trim().toUpperCase();
  const problem: MessageKey | null = !d.model.trim()
    ? "ai.settings.problem.model"
    : d.kind === "compatible_api" && !d.baseUrl.trim()
      ? "ai.settings.problem.baseUrl"
      : amount && !aiAmountSchema.safeParse(amount).success
        ? "ai.settings.problem.amount"
        : amount && !/^[A-Z]{3}$/.test(currency)
          ? "ai.settings.problem.currency"
          : null;
  if (problem) return { problem };
  const body = aiSettingsBody.safeParse({
    providerKind: d.kind,
    model: d.model.trim(),
    // Empty: keep the stored key (the server never sends it back).
    ...(d.apiKey ? { apiKey: d.apiKey } : {}),
    baseUrl: d.kind === "compatible_api" ? d.baseUrl.trim() : null,
    monthlyBudget: amount ? { amount, currency } : null,
    enabled: d.enabled,
    // A new key is asked about before it is stored (a refused one is a 400 that saves nothing).
    ...(d.apiKey && check ? { check: true } : {}),
  });
  if (!body.success) return { invalid: body.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") };
  return { body: body.data };
}
