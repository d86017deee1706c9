/**
 * Rate limits of the OAuth token endpoint and /mcp (our choice; the spec names none): each answers
 * anyone who calls, before any token is checked, so each is limited per client address (IPv6 per
 * /64, as the sign-in limits count), and the token endpoint also per client, whatever address
 * its requests come from. In memory in the embedded mode, in PostgreSQL when replicas share
 * DATABASE_URL, like the sign-in and personal-token limits.
 */
import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { ipKey } from "../auth/limits.js";
import type { Database } from "../db/client.js";
import { rateLimits } from "../db/schema/index.js";
import { RateLimitedError } from "../errors/classes.js";

/** A person authorizes a connector now and then; a client exchanges one code per authorization. */
export const TOKEN_REQUESTS_PER_IP = { points: 30, duration: 60 };
export const TOKEN_REQUESTS_PER_CLIENT = { points: 60, duration: 60 };
/** Every tool call is a POST of its own (stateless transport), and an assistant may make several a second. */
export const MCP_REQUESTS_PER_IP = { points: 300, duration: 60 };

async function spend(limiter: RateLimiterAbstract, key: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (res) {
    if (res instanceof RateLimiterRes) throw new RateLimitedError(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
    throw res;
  }
}

export class OAuthLimits {
  constructor(
    private readonly tokenIp: RateLimiterAbstract,
    private readonly tokenClient: RateLimiterAbstract,
    private readonly mcpIp: RateLimiterAbstract,
  ) {}

  hitToken(ip: string): Promise<void> {
    return spend(this.tokenIp, ipKey(ip));
  }

  /** Client ids are URLs of up to 2000 characters: counted under a hash. */
  hitTokenClient(clientId: string): Promise<void> {
    return spend(this.tokenClient, createHash("sha256").update(clientId).digest("base64url").slice(0, 22));
  }

  hitMcp(ip: string): Promise<void> {
    return spend(this.mcpIp, ipKey(ip));
  }
}

/** In front of /mcp: 429 rate_limited with Retry-After in our error body. */
export function mcpLimit(limits: OAuthLimits): RequestHandler {
  return (req, _res, next) => {
    limits.hitMcp(req.clientIp).then(() => next(), next);
  };
}

export function createOAuthLimits(database: Database): OAuthLimits {
  const make = (keyPrefix: string, opts: { points: number; duration: number }): RateLimiterAbstract =>
    database.kind === "postgres"
      ? // The sign-in limits' first limiter already sweeps expired rows of the shared table.
        new RateLimiterDrizzle({ storeClient: database.db, schema: rateLimits, keyPrefix, clearExpiredByTimeout: false, ...opts })
      : new RateLimiterMemory({ keyPrefix, ...opts });
  return new OAuthLimits(make("oauth-token", TOKEN_REQUESTS_PER_IP), make("oauth-client", TOKEN_REQUESTS_PER_CLIENT), make("mcp", MCP_REQUESTS_PER_IP));
}
