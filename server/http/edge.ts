/**
 * The edge, in DESIGN.md's order: client address -> same-site check -> authentication -> body
 * parsing with size limits. Each is a small middleware; app.ts strings them together.
 */
import { randomUUID } from "node:crypto";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { fromNodeHeaders } from "better-auth/node";
import type { Auth } from "../auth/auth.js";
import { userActor } from "../auth/actor.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { isPending } from "../auth/second-factor.js";
import { touchSession } from "../auth/sessions.js";
import type { ResolvedSession, SessionCache } from "../auth/session-cache.js";
import { ensureBootstrapped } from "../modules/locations/bootstrap.js";
import { bearerOf } from "../modules/tokens/gate.js";
import { ForbiddenError, PayloadTooLargeError, UnauthenticatedError } from "./errors.js";

/** Spec Limits: ANONYMOUS_BODY_LIMIT. */
export const ANONYMOUS_BODY_LIMIT = 16 * 1024;
/** Signed-in bodies (a 1000-op sync batch is about 240 KB). */
export const AUTHENTICATED_BODY_LIMIT = 4 * 1024 * 1024;

export const CLIENT_IP_HEADER = "x-svc-client-ip";

/**
 * Spec "Sessions and cookies" rule 4. Express's req.ip is the socket address, walked through
 * X-Forwarded-For only for the hops "trust proxy" (SVC_TRUSTED_PROXIES) names. The result is also
 * handed to the auth library in a header it is told to read, overwriting anything the client sent.
 */
export function clientAddress(): RequestHandler {
  return (req, _res, next) => {
    req.id = randomUUID();
    req.clientIp = req.ip ?? req.socket.remoteAddress ?? "unknown";
    req.headers[CLIENT_IP_HEADER] = req.clientIp;
    next();
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Spec "Same-site check" 1-3: a cookie-bearing unsafe request must come from our own origin
 * (Origin equal to SVC_PUBLIC_URL's origin; without a usable Origin, Sec-Fetch-Site same-origin).
 * It runs before any session lookup or body read. Bearer requests carry no cookie authority.
 */
export function sameSiteCheck(config: Config): RequestHandler {
  const ours = config.publicUrl.origin;
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    if (/^bearer\s/i.test(req.headers.authorization ?? "")) {
      // The request is authorised by its token alone; never by a cookie it may also carry.
      delete req.headers.cookie;
      return next();
    }
    if (!req.headers.cookie) return next();
    const origin = req.headers.origin;
    if (origin && origin !== "null") {
      return origin === ours ? next() : next(new ForbiddenError("Cross-site request refused."));
    }
    if (req.headers["sec-fetch-site"] === "same-origin") return next();
    next(new ForbiddenError("Cross-site request refused: no Origin or Sec-Fetch-Site header."));
  };
}

/**
 * Resolves the session cookie to an actor. A sliding session's refreshed cookie is passed on.
 * Sign-up step 2 is re-run here for a signed-in user who lacks it (spec Sign-up rule 5).
 * Resolved sessions are remembered briefly per cookie header (server/auth/session-cache.ts).
 */
export function authenticate(auth: Auth, db: Db, cache: SessionCache): RequestHandler {
  return async (req, res, next) => {
    try {
      // A bearer request is its token's alone (server/modules/tokens/gate.ts), even a GET carrying a cookie.
      const cookie = req.headers.cookie;
      if (!cookie || bearerOf(req.headers.authorization) !== null) return next();
      let found = cache.get(cookie);
      if (found === undefined) {
        const ticket = cache.ticket();
        const result = await auth.api.getSession({ headers: fromNodeHeaders(req.headers), returnHeaders: true });
        const setCookie = result.headers?.getSetCookie?.() ?? [];
        found = (result.response as ResolvedSession | null) ?? null;
        if (setCookie.length) res.append("set-cookie", setCookie);
        else cache.set(cookie, found, ticket);
      }
      if (!found) return next();
      const { user, session } = found;
      await ensureBootstrapped(db, { id: user.id, name: user.name });
      const mfaProvenAt = (session as { mfaProvenAt?: Date | null }).mfaProvenAt ?? null;
      req.mfaPending = isPending(user, { mfaProvenAt });
      req.actor = userActor(user, { sessionId: session.id, mfaProven: mfaProvenAt !== null });
      await touchSession(db, session);
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** JSON bodies, 16 KiB for anonymous requests, larger once signed in; 413 past the limit. */
export function bodyParser(): RequestHandler {
  const small = express.json({ limit: ANONYMOUS_BODY_LIMIT });
  const large = express.json({ limit: AUTHENTICATED_BODY_LIMIT });
  return (req: Request, res: Response, next: NextFunction) => {
    const limit = req.actor ? AUTHENTICATED_BODY_LIMIT : ANONYMOUS_BODY_LIMIT;
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) return next(new PayloadTooLargeError(limit, req.actor ? { maxOps: 1000 } : {}));
    (req.actor ? large : small)(req, res, (err?: unknown) => {
      if ((err as { type?: string } | undefined)?.type === "entity.too.large") return next(new PayloadTooLargeError(limit));
      next(err);
    });
  };
}

export function requireActor(req: Request) {
  if (!req.actor) throw new UnauthenticatedError();
  return req.actor;
}
