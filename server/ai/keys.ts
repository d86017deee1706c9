/**
 * API keys people and owners enter in AI settings, at rest in ai_settings.api_key_sealed: sealed by
 * the secret-field box (server/db/secret-box.ts), AES-256-GCM under the key of the owner
 * account the settings belong to (for a person's own settings, the account they own), derived from
 * the server secret. The AAD names the settings row, its provider kind and its base URL: a
 * ciphertext copied to another row does not open, and neither does one whose row was pointed at
 * another provider or host behind the service's back (a key goes only where it was entered for).
 * Keys are never returned by a route and never logged: only `hasKey` leaves this module's callers.
 */
import type { ProviderKind } from "../../shared/ai.js";
import { secretBox, type SecretBox } from "../db/secret-box.js";

/** The row a key is sealed for. */
export interface KeyOwner {
  /** ai_settings.id */
  settingsId: string;
  /** The account whose key seals it: the settings' account, or the account the person owns. */
  accountId: string;
  providerKind: ProviderKind;
  baseUrl: string | null;
}

// The AAD as the box builds it: `ai_settings:<row id>:<fieldId>`.
const owner = (k: KeyOwner) => ({
  accountId: k.accountId,
  entity: "ai_settings" as const,
  entityId: k.settingsId,
  fieldId: `api_key|${k.providerKind}|${k.baseUrl ?? ""}`,
});

export function sealApiKey(k: KeyOwner, apiKey: string, box: SecretBox = secretBox()): string {
  return box.seal(owner(k), apiKey);
}

/**
 * The key sealed for exactly this row, provider and base URL; null when it does not open (another
 * row's ciphertext, a changed server secret, a tampered row). The reason is not told: it could only
 * help someone probing the ciphertexts.
 */
export function openApiKey(k: KeyOwner, sealed: string, box: SecretBox = secretBox()): string | null {
  try {
    const value = box.open(owner(k), sealed);
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}
