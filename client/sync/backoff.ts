/**
 * Retry delays for the pusher: exponential with full jitter, so a thousand phones coming back
 * online at once do not push in lockstep, and never sooner than the server's Retry-After
 * (sync/SPEC.md PU3: 429 and 503 carry it).
 */
export interface BackoffOptions {
  /** First delay's ceiling (ms). */
  baseMs: number;
  /** Largest ceiling (ms). */
  maxMs: number;
}

export const PUSH_BACKOFF: BackoffOptions = { baseMs: 1_000, maxMs: 60_000 };

/**
 * Delay before retry number `attempt` (0 for the first retry). `retryAfterMs` is the server's
 * floor, when it gave one; `random` is injectable for tests.
 */
export function backoffDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  opts: BackoffOptions = PUSH_BACKOFF,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(opts.maxMs, opts.baseMs * 2 ** Math.max(0, attempt));
  const jittered = Math.floor(random() * ceiling);
  return Math.max(jittered, retryAfterMs ?? 0);
}

/**
 * Retry-After in ms from the header: delta-seconds or an HTTP date (RFC 9110 10.2.3). Unreadable
 * or absent: undefined.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
