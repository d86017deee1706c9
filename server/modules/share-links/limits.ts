/**
 * What one address may read through share links (no sign-in, so per address): previews 120 a
 * minute, photos 1200 (a page shows up to 50). Kept where every replica sees them
 * (server/auth/limits.ts `sharedLimiter`).
 */
import type { Request } from "express";
import { RateLimiterRes } from "rate-limiter-flexible";
import { ipKey, sharedLimiter } from "../../auth/limits.js";
import type { Database } from "../../db/client.js";
import { RateLimitedError } from "../../errors/classes.js";

export const SHARE_PREVIEWS = { points: 120, duration: 60 };
const PHOTOS = { points: 1200, duration: 60 };

export interface ShareLimits {
  previews: (req: Request) => Promise<void>;
  photos: (req: Request) => Promise<void>;
}

function limiter(database: Database, opts: { points: number; duration: number }, keyPrefix: string) {
  const l = sharedLimiter(database, keyPrefix, opts);
  return async (req: Request) => {
    try {
      await l.consume(ipKey(req.clientIp));
    } catch (res) {
      if (res instanceof RateLimiterRes) throw new RateLimitedError(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
      throw res;
    }
  };
}

export function createShareLimits(database: Database): ShareLimits {
  return { previews: limiter(database, SHARE_PREVIEWS, "share-preview"), photos: limiter(database, PHOTOS, "share-photo") };
}
