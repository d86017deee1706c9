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

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

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
  const b = [
    (ms / 0x10000000000) & 0xff,
    (ms / 0x100000000) & 0xff,
    (ms / 0x1000000) & 0xff,
    (ms / 0x10000) & 0xff,
    (ms / 0x100) & 0xff,
    ms & 0xff,
    0x70 | ((seq >>> 28) & 0x0f),
    (seq >>> 20) & 0xff,
    0x80 | ((seq >>> 14) & 0x3f),
    (seq >>> 6) & 0xff,
    ((seq << 2) & 0xff) | (pool[r + 4]! & 0x03),
    pool[r + 5]!,
    pool[r + 6]!,
    pool[r + 7]!,
    pool[r + 8]!,
    pool[r + 9]!,
  ].map((x) => HEX[x]!);
  return `${b[0]}${b[1]}${b[2]}${b[3]}-${b[4]}${b[5]}-${b[6]}${b[7]}-${b[8]}${b[9]}-${b[10]}${b[11]}${b[12]}${b[13]}${b[14]}${b[15]}`;
}
