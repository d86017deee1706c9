/**
 * A share link's token: 43 base62 characters (about 256 bits) from the system's random source,
 * stored only as HMAC-SHA256 under a key derived from the server secret (as personal tokens are,
 * ../tokens/secret.ts), bound to the link's id, and compared in constant time.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "../../db/client.js";

/** What the share-link services need: the database, the token hasher and where links point. */
export interface ShareDeps {
  db: Db;
  hasher: ShareTokenHasher;
  publicUrl: URL;
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
export const SHARE_TOKEN_LENGTH = 43;
const TOKEN_PATTERN = /^[0-9A-Za-z]{43}$/;

/** Uniform base62 by rejection sampling (no modulo bias). */
export function newShareToken(): string {
  let out = "";
  while (out.length < SHARE_TOKEN_LENGTH) {
    for (const byte of randomBytes(SHARE_TOKEN_LENGTH * 2)) {
      if (byte < 248 && out.length < SHARE_TOKEN_LENGTH) out += BASE62[byte % 62];
    }
  }
  return out;
}

export class ShareTokenHasher {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = Buffer.from(hkdfSync("sha256", serverSecret, "", "svc/share/v1", 32));
  }

  hash(linkId: string, token: string): string {
    return createHmac("sha256", this.key).update(`${linkId.toLowerCase()}.${token}`).digest("base64url");
  }

  /**
   * Constant time in the token; `stored` is null when no link matched, and a hash is still made and
   * compared, so an unknown link and a wrong token take the same time.
   */
  matches(linkId: string, token: string | undefined, stored: string | null): boolean {
    const wellFormed = typeof token === "string" && TOKEN_PATTERN.test(token);
    const actual = Buffer.from(this.hash(linkId, wellFormed ? token : "0".repeat(SHARE_TOKEN_LENGTH)));
    const expected = Buffer.from(stored ?? this.hash(linkId, "1".repeat(SHARE_TOKEN_LENGTH)));
    return actual.length === expected.length && timingSafeEqual(actual, expected) && stored !== null && wellFormed;
  }
}
