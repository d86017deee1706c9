/**
 * One-time codes of managed accounts: 12 characters from an alphabet without look-alikes, grouped
 * for reading aloud (K7QM-3XPA-9TWD, about 59 bits). Only an HMAC keyed with the server secret is
 * stored, bound to the account, so a leaked table row cannot be replayed for another account.
 */
import { createHmac, randomInt, timingSafeEqual } from "node:crypto";

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
export const CODE_TTL_MS = 7 * 86400_000;

export function newCode(): string {
  const chars = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]!);
  return `${chars.slice(0, 4).join("")}-${chars.slice(4, 8).join("")}-${chars.slice(8).join("")}`;
}

/** Case, spaces and dashes do not matter when the person types the code. */
export function normalizeCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, "");
}

export function hashCode(secret: string, userId: string, code: string): string {
  return createHmac("sha256", secret)
    .update(`managed-account-code:${userId}:${normalizeCode(code)}`)
    .digest("base64url");
}

export function codeMatches(secret: string, userId: string, code: string, stored: string): boolean {
  const a = Buffer.from(hashCode(secret, userId, code));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
