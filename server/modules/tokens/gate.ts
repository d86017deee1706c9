/**
 * The edge for personal tokens: resolving `Authorization: Bearer svt_…` to an actor, then the
 * allow-list and the per-token rate limits. Runs after the same-site check (which already dropped
 * any cookie on an unsafe bearer request) and instead of the session lookup.
 */
import type { RequestHandler } from "express";
import { bearerOf } from "../../auth/bearer.js";
import type { Db } from "../../db/client.js";
import { ForbiddenError, UnauthenticatedError } from "../../errors/classes.js";
import { tokenMayReach } from "./allow-list.js";
import type { TokenLimits } from "./limits.js";
import type { TokenHasher } from "./secret.js";
import { actorForToken } from "./service.js";

/** Authenticates a bearer request as its personal token; every failure is the same 401. */
export function tokenAuthenticate(db: Db, hasher: TokenHasher): RequestHandler {
  return async (req, res, next) => {
    try {
      const presented = bearerOf(req.headers.authorization);
      if (presented === null) return next();
      const actor = presented ? await actorForToken(db, hasher, presented) : null;
      if (!actor) {
        res.setHeader("WWW-Authenticate", 'Bearer error="invalid_token"');
        return next(new UnauthenticatedError("The bearer token is unknown, revoked or expired."));
      }
      req.actor = actor;
      next();
    } catch (err) {
      next(err);
    }
  };
}

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A token reaches only allow-listed routes, within 120 reads and 30 writes a minute. */
export function tokenGate(limits: TokenLimits): RequestHandler {
  return async (req, _res, next) => {
    try {
      const actor = req.actor;
      if (actor?.type !== "token" || !actor.tokenId) return next();
      if (!tokenMayReach(req.method, req.path)) throw new ForbiddenError("A personal token cannot reach this route; use a signed-in session.");
      await limits.hit(actor.tokenId, READ_METHODS.has(req.method) ? "read" : "write");
      next();
    } catch (err) {
      next(err);
    }
  };
}
