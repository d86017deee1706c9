/**
 * Per-token rate limits (spec "Limits"): 120 reads and 30 writes a minute. In memory in the
 * embedded mode, in PostgreSQL when replicas share DATABASE_URL, like the sign-in limits.
 */
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Database } from "../../db/client.js";
import { rateLimits } from "../../db/schema/index.js";
import { RateLimitedError } from "../../errors/classes.js";

export const TOKEN_READS = { points: 120, duration: 60 };
export const TOKEN_WRITES = { points: 30, duration: 60 };

export class TokenLimits {
  constructor(
    private readonly reads: RateLimiterAbstract,
    private readonly writes: RateLimiterAbstract,
  ) {}

  async hit(tokenId: string, kind: "read" | "write"): Promise<void> {
    try {
      await (kind === "read" ? this.reads : this.writes).consume(tokenId);
    } catch (res) {
      if (res instanceof RateLimiterRes) throw new RateLimitedError(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
      throw res;
    }
  }
}

export function createTokenLimits(database: Database): TokenLimits {
  if (database.kind === "postgres") {
    // The sign-in limits' first limiter already sweeps expired rows of the shared table.
    const make = (keyPrefix: string, opts: { points: number; duration: number }) =>
      new RateLimiterDrizzle({ storeClient: database.db, schema: rateLimits, keyPrefix, clearExpiredByTimeout: false, ...opts });
    return new TokenLimits(make("token-read", TOKEN_READS), make("token-write", TOKEN_WRITES));
  }
  return new TokenLimits(
    new RateLimiterMemory({ keyPrefix: "token-read", ...TOKEN_READS }),
    new RateLimiterMemory({ keyPrefix: "token-write", ...TOKEN_WRITES }),
  );
}
