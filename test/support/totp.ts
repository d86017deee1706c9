/** An authenticator app in a few lines: RFC 6238 codes from an otpauth:// URI (RFC 4648 base32 secret). */
import { createHmac } from "node:crypto";

function base32Decode(input: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const ch of input.replace(/=+$/, "").toUpperCase()) {
    const i = alphabet.indexOf(ch);
    if (i < 0) throw new Error(`not base32: ${ch}`);
    value = (value << 5) | i;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export function secretOf(totpURI: string): Buffer {
  const secret = new URL(totpURI).searchParams.get("secret");
  if (!secret) throw new Error("no secret in the TOTP URI");
  return base32Decode(secret);
}

/** The 6-digit code for `at` (default now), `step` periods away. */
export function totpCode(totpURI: string, opts: { at?: number; step?: number } = {}): string {
  const counter = Math.floor((opts.at ?? Date.now()) / 30_000) + (opts.step ?? 0);
  const msg = Buffer.alloc(8);
  msg.writeBigUInt64BE(BigInt(counter));
  const h = createHmac("sha1", secretOf(totpURI)).update(msg).digest();
  const offset = h[h.length - 1]! & 15;
  const n = (h.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(n).padStart(6, "0");
}

/** A code that is certainly wrong now (outside the accepted window of one period either side). */
export function wrongCode(totpURI: string): string {
  const valid = new Set([-1, 0, 1].map((step) => totpCode(totpURI, { step })));
  for (let i = 0; ; i++) {
    const c = String((Number(totpCode(totpURI)) + 7919 * (i + 1)) % 1_000_000).padStart(6, "0");
    if (!valid.has(c)) return c;
  }
}

/** The last step handed out per secret: the server takes each code once (server/auth/totp-replay.ts). */
const lastStep = new Map<string, number>();

/**
 * A code the server has not taken yet: the earliest unused step inside the accepted window (one
 * step either side of now; the previous step only while it stays valid for 5 s more), so a test
 * gets up to three codes without waiting; when those are used up, it waits for the next step.
 */
export async function freshTotpCode(totpURI: string): Promise<string> {
  const key = secretOf(totpURI).toString("hex");
  for (;;) {
    const now = Math.floor(Date.now() / 30_000);
    const earliest = Date.now() % 30_000 <= 25_000 ? now - 1 : now;
    const step = Math.max((lastStep.get(key) ?? -Infinity) + 1, earliest);
    if (step <= now + 1) {
      lastStep.set(key, step);
      return totpCode(totpURI, { at: step * 30_000 });
    }
    await new Promise((r) => setTimeout(r, (now + 1) * 30_000 - Date.now() + 10));
  }
}
