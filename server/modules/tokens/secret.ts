/**
 * The token format `svt_<lookup>_<secret>` and its keyed hash (research/auth-notes.md section 5).
 * The lookup is public and indexed; the secret never leaves the creation response. Only
 * HMAC-SHA256(K, lookup "." secret) is stored, with K derived from the server secret, so a leaked
 * database alone cannot confirm a guessed token. Base62 keeps `_` a pure separator.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const LOOKUP_LENGTH = 12;
const SECRET_LENGTH = 43;
const TOKEN_PATTERN = /^svt_([0-9A-Za-z]{12})_([0-9A-Za-z]{43})$/;
/** Bumped if the derivation ever changes; stored per token so old tokens can still be checked. */
export const KEY_VERSION = 1;

/** Uniform base62 by rejection sampling (no modulo bias). */
function base62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function newToken(): { lookup: string; secret: string; token: string } {
  const lookup = base62(LOOKUP_LENGTH);
  const secret = base62(SECRET_LENGTH); // about 256 bits
  return { lookup, secret, token: `svt_${lookup}_${secret}` };
}

export function parseToken(value: string): { lookup: string; secret: string } | null {
  const m = TOKEN_PATTERN.exec(value);
  return m ? { lookup: m[1]!, secret: m[2]! } : null;
}

export function displayPrefix(lookup: string): string {
  return `svt_${lookup}_…`;
}

export class TokenHasher {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync("sha256", serverSecret, "", `svc/pat/v${KEY_VERSION}`, 32));
  }

  hash(lookup: string, secret: string): string {
    return createHmac("sha256", this.key).update(`${lookup}.${secret}`).digest("base64url");
  }

  /** Constant time in the secret; `stored` is null when no row matched, and a dummy hash still runs. */
  matches(lookup: string, secret: string, stored: string | null): boolean {
    const actual = Buffer.from(this.hash(lookup, secret));
    const expected = Buffer.from(stored ?? this.hash("0".repeat(LOOKUP_LENGTH), "0".repeat(SECRET_LENGTH)));
    return actual.length === expected.length && timingSafeEqual(actual, expected) && stored !== null;
  }
}
