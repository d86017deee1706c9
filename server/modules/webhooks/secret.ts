/**
 * A webhook's signing secret: `whsec_` and 32 random bytes in base64 (the Standard Webhooks form),
 * shown once when the webhook is made. The service must sign with it later, so it is kept sealed
 * by the secret-field box (AES-256-GCM under the location's account key, derived from the server
 * secret; server/db/secret-box.ts), bound to its webhook row: a ciphertext copied to
 * another webhook does not open.
 */
import { randomBytes } from "node:crypto";
import { secretBox } from "../../db/secret-box.js";

const owner = (accountId: string, webhookId: string) => ({ accountId, entity: "webhook" as const, entityId: webhookId, fieldId: "signing_secret" });

export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;

export const sealSigningSecret = (accountId: string, webhookId: string, secret: string): string => secretBox().seal(owner(accountId, webhookId), secret);

/** The secret, or null when it does not open (changed server secret, tampered row). */
export function openSigningSecret(accountId: string, webhookId: string, sealed: string): string | null {
  try {
    const value = secretBox().open(owner(accountId, webhookId), sealed);
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}
