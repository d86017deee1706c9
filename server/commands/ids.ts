/**
 * uuid v7 ids for rows the server makes, often a thousand per request (history entries, inbox
 * items). The uuid package's layout and in-process counter, so ids made in one millisecond still
 * sort in the order they were made; but the random bytes come from a 4 KiB pool refilled now and
 * then, instead of one getRandomValues call per id.
 */
import { randomFillSync } from "node:crypto";

const pool = Buffer.alloc(4096);
let used = pool.length;
let lastMs = -Infinity;
let seq = 0;

const HEX = new TextEncoder().encode("0123456789abcdef");
/** Where each of the 16 bytes goes in the 36-character text (dashes after bytes 4, 6, 8, 10). */
const AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
const text = Buffer.from("00000000-0000-0000-0000-000000000000", "latin1");

/** Ten fresh random bytes: 4 seed the counter in a new millisecond, 6 fill the tail. */
function random(): number {
  if (used + 10 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const at = used;
  used += 10;
  return at;
}

function put(i: number, byte: number): void {
  text[AT[i]!] = HEX[byte >>> 4]!;
  text[AT[i]! + 1] = HEX[byte & 0x0f]!;
}

export function newId(): string {
  const r = random();
  const now = Date.now();
  if (now > lastMs) {
    seq = ((pool[r]! & 0x7f) << 24) | (pool[r + 1]! << 16) | (pool[r + 2]! << 8) | pool[r + 3]!;
    lastMs = now;
  } else {
    seq = (seq + 1) | 0;
    if (seq === 0) lastMs++;
  }
  const ms = lastMs;
  put(0, (ms / 0x10000000000) & 0xff);
  put(1, (ms / 0x100000000) & 0xff);
  put(2, (ms / 0x1000000) & 0xff);
  put(3, (ms / 0x10000) & 0xff);
  put(4, (ms / 0x100) & 0xff);
  put(5, ms & 0xff);
  put(6, 0x70 | ((seq >>> 28) & 0x0f));
  put(7, (seq >>> 20) & 0xff);
  put(8, 0x80 | ((seq >>> 14) & 0x3f));
  put(9, (seq >>> 6) & 0xff);
  put(10, ((seq << 2) & 0xff) | (pool[r + 4]! & 0x03));
  for (let i = 11; i < 16; i++) put(i, pool[r + i - 6]!);
  return text.toString("latin1");
}
