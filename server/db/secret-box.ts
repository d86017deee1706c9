/**
 * Secret field values at rest: AES-256-GCM under a key per owner account, derived from the server
 * secret with HKDF-SHA256 (salt: the purpose, info: the account id), so neither the database nor a
 * leaked ciphertext alone reveals a value, and one account's key opens nothing of another's. A
 * stored value is base64(iv (12 random bytes) || ciphertext || tag (16 bytes)); the AAD names the
 * row it belongs to (thing or place, and the field), so a ciphertext copied to another row or
 * field does not open. The key never reaches the database. Changing SVC_SECRET makes every stored
 * value unreadable, as it ends personal tokens.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

const PURPOSE = "svc/secret-fields/v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a ciphertext is bound to: its owner row and field. */
export interface SecretOwner {
  accountId: string;
  /** `thing` or `place`; `ai_settings` for an AI provider's API key (server/ai/keys.ts). */
  entity: "thing" | "place" | "ai_settings" | "webhook";
  entityId: string;
  fieldId: string;
}

const aad = (o: SecretOwner) => Buffer.from(`${o.entity}:${o.entityId}:${o.fieldId}`, "utf8");

export class SecretBox {
  private readonly serverSecret: string;

  constructor(serverSecret: string) {
    this.serverSecret = serverSecret;
  }

  /** Whether this box was made from `serverSecret` (the process keeps one). */
  madeFrom(serverSecret: string): boolean {
    return this.serverSecret === serverSecret;
  }

  private key(accountId: string): Buffer {
    return Buffer.from(hkdfSync("sha256", this.serverSecret, PURPOSE, `account:${accountId}`, 32));
  }

  /** The JSON of `value`, encrypted for `owner`. */
  seal(owner: SecretOwner, value: unknown): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key(owner.accountId), iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(owner));
    const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64");
  }

  /** The value sealed for `owner`; throws when the text was not sealed for exactly this owner with this secret. */
  open(owner: SecretOwner, stored: string): unknown {
    const raw = Buffer.from(stored, "base64");
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error("secret value too short");
    const decipher = createDecipheriv("aes-256-gcm", this.key(owner.accountId), raw.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(owner));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
    return JSON.parse(text) as unknown;
  }
}

/**
 * The process's box. Commands run inside the write path, which carries no configuration, so the
 * server secret (one per process: SVC_SECRET or the generated one) is handed over once when the
 * services are made (server/services.ts). A second, different secret in one process is a mistake
 * that would seal values under the wrong key: refused.
 */
let current: SecretBox | null = null;

export function useServerSecret(serverSecret: string): void {
  if (current && !current.madeFrom(serverSecret)) throw new Error("one process cannot use two server secrets for secret fields");
  current ??= new SecretBox(serverSecret);
}

export function secretBox(): SecretBox {
  if (!current) throw new Error("secret fields need the server secret: createServices hands it over (useServerSecret)");
  return current;
}
