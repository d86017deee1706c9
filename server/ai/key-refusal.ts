/** A refused key told apart from an outage. No imports: the extraction worker reads it without loading the AI SDK. */

/**
 * The status with which a provider refused the key, or null: 401 and 403 on every provider, and
 * Gemini's 400 whose body gives the reason API_KEY_INVALID (it answers a wrong key so). A refused key
 * is the payer's settings to fix, not an outage: it is not tried again (extractions/run.ts).
 */
export function keyRefusalStatus(status: number | undefined, body: string | undefined): number | null {
  if (status === 401 || status === 403) return status;
  if (status === 400 && body?.includes("API_KEY_INVALID")) return 400;
  return null;
}

/** The provider's status in an errorCode of a refused key (`key_refused_401`), or null for any other code. */
export function refusedKeyStatus(errorCode: string | null): number | null {
  const m = errorCode ? /^key_refused_(\d{3})$/.exec(errorCode) : null;
  return m ? Number(m[1]) : null;
}
