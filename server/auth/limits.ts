/**
 * Sign-in limits (spec "Limits"): sign-in attempts 5 a minute per IP; sign-in failures 20 an hour
 * per account and IP, with growing delays instead of a lockout; mailed-token redemptions 30 an
 * hour per IP. Every refusal is a RateLimitedError (429 with Retry-After).
 *
 * Counters live in memory in the embedded mode (one process) and in PostgreSQL when several
 * replicas share DATABASE_URL, so a limit holds whichever replica a request lands on.
 */
import { createHash } from "node:crypto";
import { isIPv6 } from "node:net";
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Database } from "../db/client.js";
import { rateLimits } from "../db/schema/index.js";
import { RateLimitedError } from "../errors/classes.js";

export const SIGN_IN_ATTEMPTS = { points: 5, duration: 60 };
export const SIGN_IN_FAILURES = { points: 20, duration: 3600 };
export const TOKEN_REDEMPTIONS = { points: 30, duration: 3600 };
/** Our choice (spec: "not shown"): mails asked for one address, from anywhere, so no one is mail-bombed. */
export const MAILS_PER_ADDRESS = { points: 5, duration: 3600 };
/** Failures that cost nothing; from then on each failure doubles the wait before the next try. */
export const FREE_FAILURES = 3;
export const MAX_DELAY_SECONDS = 15 * 60;

/** Seconds to wait after the n-th failure (1-based): 0 for the free ones, then 1, 2, 4, ... capped. */
export function delayAfterFailure(n: number): number {
  if (n < FREE_FAILURES) return 0;
  return Math.min(2 ** (n - FREE_FAILURES), MAX_DELAY_SECONDS);
}

/**
 * The address a per-IP limit counts against. An IPv6 client usually holds a whole /64, so its
 * addresses count as one; IPv4-mapped addresses count as the IPv4 address.
 */
export function ipKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = "", tail = ""] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g || "0", 16).toString(16))
    .join(":")}::/64`;
}

/** Accounts are hashed so the counter table never holds an address or username. */
export function failureKey(account: string, ip: string): string {
  const who = createHash("sha256").update(account.trim().toLowerCase()).digest("base64url").slice(0, 22);
  return `${who}:${ipKey(ip)}`;
}

function retryAfter(ms: number): RateLimitedError {
  return new RateLimitedError(Math.max(1, Math.ceil(ms / 1000)));
}

export class SignInLimits {
  readonly attempts: RateLimiterAbstract;
  readonly redemptions: RateLimiterAbstract;
  readonly failures: RateLimiterAbstract;
  readonly mails: RateLimiterAbstract;
  /** A key here is blocked (consumed > 1) until its current delay has passed. */
  readonly delays: RateLimiterAbstract;

  constructor(make: (keyPrefix: string, opts: { points: number; duration: number }) => RateLimiterAbstract) {
    this.attempts = make("sign-in", SIGN_IN_ATTEMPTS);
    this.redemptions = make("redeem", TOKEN_REDEMPTIONS);
    this.failures = make("fail", SIGN_IN_FAILURES);
    this.mails = make("mail", MAILS_PER_ADDRESS);
    this.delays = make("delay", { points: 1, duration: MAX_DELAY_SECONDS });
  }

  private async spend(limiter: RateLimiterAbstract, key: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (res) {
      if (res instanceof RateLimiterRes) throw retryAfter(res.msBeforeNext);
      throw res;
    }
  }

  /** One sign-in attempt from this address (any method, any outcome). */
  hitAttempt(ip: string): Promise<void> {
    return this.spend(this.attempts, ipKey(ip));
  }

  /** One redemption of a mailed (or handed-out) token from this address. */
  hitRedemption(ip: string): Promise<void> {
    return this.spend(this.redemptions, ipKey(ip));
  }

  /** One mail (reset or magic link) asked for this address; hashed like the failure keys. */
  hitMailRequest(email: string): Promise<void> {
    return this.spend(this.mails, failureKey(`email:${email}`, "any"));
  }

  /** Refuses while this account and address are over the hourly failures or inside a delay. */
  async checkFailures(account: string, ip: string): Promise<void> {
    const key = failureKey(account, ip);
    const [failed, delayed] = await Promise.all([this.failures.get(key), this.delays.get(key)]);
    if (failed && failed.consumedPoints >= SIGN_IN_FAILURES.points) throw retryAfter(failed.msBeforeNext);
    if (delayed && delayed.consumedPoints > 1) throw retryAfter(delayed.msBeforeNext);
  }

  async recordFailure(account: string, ip: string): Promise<void> {
    const key = failureKey(account, ip);
    const res = await this.failures.penalty(key, 1);
    const wait = delayAfterFailure(res.consumedPoints);
    if (wait > 0) await this.delays.block(key, wait);
  }

  /** A success forgets this account's failures from this address. */
  async clearFailures(account: string, ip: string): Promise<void> {
    const key = failureKey(account, ip);
    await Promise.all([this.failures.delete(key), this.delays.delete(key)]);
  }
}

export function createSignInLimits(database: Database): SignInLimits {
  if (database.kind === "postgres") {
    let first = true;
    return new SignInLimits((keyPrefix, opts) => {
      // One of them sweeps expired rows every few minutes; one sweeper is enough.
      const limiter = new RateLimiterDrizzle({ storeClient: database.db, schema: rateLimits, keyPrefix, clearExpiredByTimeout: first, ...opts });
      first = false;
      return limiter;
    });
  }
  return new SignInLimits((keyPrefix, opts) => new RateLimiterMemory({ keyPrefix, ...opts }));
}

/**
 * One limiter kept where every replica sees it: in PostgreSQL (the `rate_limits` table) when
 * replicas share DATABASE_URL, in memory in the embedded mode (one process). The sign-in limits'
 * first limiter sweeps expired rows of the shared table for all of them.
 */
export function sharedLimiter(database: Database, keyPrefix: string, opts: { points: number; duration: number }): RateLimiterAbstract {
  return database.kind === "postgres"
    ? new RateLimiterDrizzle({ storeClient: database.db, schema: rateLimits, keyPrefix, clearExpiredByTimeout: false, ...opts })
    : new RateLimiterMemory({ keyPrefix, ...opts });
}
