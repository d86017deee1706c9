/**
 * The edge, in DESIGN.md's order: client address -> same-site check -> authentication -> body
 * parsing with size, depth and content-type limits; and the security headers on every answer.
 * Each is a small middleware; app.ts strings them together.
 */
import { randomUUID } from "node:crypto";
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import helmet from "helmet";
import { fromNodeHeaders } from "better-auth/node";
import type { Auth } from "../auth/auth.js";
import { userActor } from "../db/actor.js";
import { bearerOf } from "../auth/bearer.js";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { isPending } from "../auth/second-factor.js";
import { touchSession } from "../auth/touch-session.js";
import type { ResolvedSession, SessionCache } from "../auth/session-cache.js";
import { AppError, ForbiddenError, PayloadTooLargeError, UnauthenticatedError, ValidationError } from "../errors/classes.js";

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

/**
 * Security headers on every answer (DESIGN.md "Edge of the server"), through helmet. The CSP allows
 * the app's own origin only: the built web app has no inline script or style, its photos are blob:
 * URLs, its service worker and manifest are same-origin. The OAuth consent page sets its own CSP
 * (server/oauth/authorize.ts) and a file download its stricter one (modules/files/routes.ts).
 * Referrer-Policy strict-origin-when-cross-origin (no-referrer would turn the Origin of our own form
 * posts into "null"; tokens we mail are in URL fragments, never sent). HSTS and
 * upgrade-insecure-requests only when SVC_PUBLIC_URL is https: over plain http on a LAN they would
 * break the app.
 */
export function securityHeaders(config: Config): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        // WebAssembly compiles (the scanner's zxing-wasm); JavaScript eval stays forbidden.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.secure ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    strictTransportSecurity: config.secure ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false } : false,
    xFrameOptions: { action: "deny" },
  });
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
    if (bearerOf(req.headers.authorization) !== null) {
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

/** What the session lookup runs for every signed-in request before it goes on. */
export interface AuthenticateHooks {
  /**
   * Sign-up step 2, re-run for a signed-in user who lacks it (spec Sign-up rule 5). app.ts passes
   * the locations module's bootstrap: the edge knows no domain.
   */
  onSignedIn(user: { id: string; name: string }): Promise<void>;
}

/**
 * Resolves the session cookie to an actor. A sliding session's refreshed cookie is passed on.
 * `hooks.onSignedIn` runs for each signed-in request (the bootstrap step, from app.ts).
 * Resolved sessions are remembered briefly per cookie header (server/auth/session-cache.ts).
 */
export function authenticate(auth: Auth, db: Db, cache: SessionCache, hooks: AuthenticateHooks): RequestHandler {
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
      await hooks.onSignedIn({ id: user.id, name: user.name });
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

/** Methods whose requests may carry a body; GET, HEAD and OPTIONS bodies are never read. */
const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Routes that read their own body: an upload is the file's raw bytes, in its own media type. */
const OWN_BODY_ROUTES = new Set(["POST /api/v1/files"]);
/** Routes with an id in the path that read their own body: the CSV import of things, the restore of an export's zip. */
const OWN_BODY_PATTERNS = [/^POST \/api\/v1\/locations\/[^/]+\/imports(\/csv)?\/?$/i];

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/** True when `bytes` (UTF-8 JSON) opens more than `max` arrays/objects at once; brackets inside strings do not count. */
export function nestsDeeperThan(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next byte is escaped (\" or \\), never the string's end
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const unsupportedMediaType = (message: string) => new AppError(415, "unsupported_media_type", message);

/**
 * body-parser's `verify` hook for every JSON body: it sees the raw bytes before JSON.parse does.
 * JSON is UTF-8 (RFC 8259 8.1), and a body may nest at most MAX_JSON_DEPTH levels: a linear scan,
 * so a body of 10,000 `[` costs one pass instead of a deep parse and deep walks after it.
 */
export function checkJsonBytes(_req: unknown, _res: unknown, bytes: Buffer, encoding: string | null): void {
  if (encoding !== null && encoding.toLowerCase() !== "utf-8") throw unsupportedMediaType("JSON bodies are UTF-8; send charset=utf-8 or none.");
  if (nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw new ValidationError(`The body nests deeper than ${MAX_JSON_DEPTH} levels.`);
}

/** Whether the request carries any bytes of body (a Content-Length of 0 is none). */
function hasBody(req: Request): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = Number(req.headers["content-length"] ?? "0");
  return !Number.isNaN(length) && length > 0;
}

/**
 * JSON bodies only, 16 KiB for anonymous requests, larger once signed in; 413 past the limit, 415
 * for a body of any other media type (or none named), 400 past MAX_JSON_DEPTH. A request without
 * a body passes with `req.body` undefined; a route that declares a body refuses it (route.ts).
 * Uploads (OWN_BODY_ROUTES) read their own bytes. The OAuth token endpoint and consent form,
 * which take forms as OAuth requires, and /mcp are mounted before this and parse their own.
 */
export function bodyParser(): RequestHandler {
  const small = express.json({ limit: ANONYMOUS_BODY_LIMIT, verify: checkJsonBytes });
  const large = express.json({ limit: AUTHENTICATED_BODY_LIMIT, verify: checkJsonBytes });
  return (req: Request, res: Response, next: NextFunction) => {
    if (
      !BODY_METHODS.has(req.method) ||
      OWN_BODY_ROUTES.has(`${req.method} ${req.path}`) ||
      OWN_BODY_PATTERNS.some((p) => p.test(`${req.method} ${req.path}`)) ||
      !hasBody(req)
    )
      return next();
    if (!req.is("application/json")) return next(unsupportedMediaType("Send the body as JSON (Content-Type: application/json)."));
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
