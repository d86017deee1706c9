/**
 * The auth library's mount at /api/v1/auth, with what we add around it: the sign-in limits
 * (server/auth/limits.ts) and our one error body shape on the library's refusals.
 *
 * Per-IP limits run before the body is read (DESIGN.md edge order); the per-account failure check
 * needs the account named in the body, so it runs after body parsing, and the outcome is recorded
 * before the answer leaves, so parallel guesses cannot outrun the counter.
 */
import type { Request, RequestHandler } from "express";
import { toNodeHandler } from "better-auth/node";
import type { z } from "zod";
import type { ErrorBody } from "../../shared/errors.js";
import { findIllFormedText } from "../../shared/text.js";
import { sql, type Db } from "../db/client.js";
import type { Auth } from "./auth.js";
import { AUTH_BASE_PATH } from "./auth.js";
import { NotFoundError, ValidationError } from "../errors/classes.js";
import { databaseUnavailable, errorCodeForStatus } from "../errors/http.js";
import { illFormedTextError, zodToValidationError } from "../errors/zod.js";
import { resetPasswordBody, resetPasswordQuery, updateUserBody } from "./input.js";
import type { SignInLimits } from "./limits.js";

const P = AUTH_BASE_PATH;

/** Starting a sign-in, by any method (and asking for a reset mail): 5 a minute per IP. */
export const SIGN_IN_ATTEMPT_ROUTES = new Set([
  `POST ${P}/sign-in/email`,
  `POST ${P}/sign-in/username`,
  `POST ${P}/sign-in/magic-link`,
  `POST ${P}/sign-in/social`,
  `POST ${P}/sign-in/oauth2`,
  // A passkey sign-in starts with its options (each stores a challenge); a verify needs one.
  `POST ${P}/passkey/authenticate/options`,
  `POST ${P}/request-password-reset`,
]);

/** Spending a token that was mailed or handed out: 30 an hour per IP. */
export const REDEMPTION_ROUTES = new Set([`POST ${P}/magic-link/verify`, `POST ${P}/reset-password`, `POST ${P}/reset-code`, `POST ${P}/email-change/confirm`]);

/** Library routes where a wrong secret counts as a failure for the account it names. */
const bodyText = (req: Parameters<RequestHandler>[0], key: string): string => {
  const v = (req.body as Record<string, unknown> | undefined)?.[key];
  return typeof v === "string" ? v : "";
};
const FAILURE_ACCOUNT: Record<string, (req: Parameters<RequestHandler>[0]) => string> = {
  [`POST ${P}/sign-in/email`]: (req) => `email:${bodyText(req, "email")}`,
  [`POST ${P}/sign-in/username`]: (req) => `username:${bodyText(req, "username")}`,
  [`POST ${P}/two-factor/verify-totp`]: (req) => `user:${req.actor?.userId ?? ""}`,
  [`POST ${P}/two-factor/verify-backup-code`]: (req) => `user:${req.actor?.userId ?? ""}`,
  // Routes that check the current password of a signed-in user: a stolen session must not be a
  // way to guess it.
  [`POST ${P}/change-password`]: (req) => `user:${req.actor?.userId ?? ""}`,
  [`POST ${P}/two-factor/enable`]: (req) => `user:${req.actor?.userId ?? ""}`,
  [`POST ${P}/two-factor/disable`]: (req) => `user:${req.actor?.userId ?? ""}`,
  [`POST ${P}/two-factor/get-totp-uri`]: (req) => `user:${req.actor?.userId ?? ""}`,
  [`POST ${P}/two-factor/generate-backup-codes`]: (req) => `user:${req.actor?.userId ?? ""}`,
};

/** A wrong secret: 401 (credentials, codes) or the library's 400 INVALID_PASSWORD. */
async function isWrongSecret(response: Response): Promise<boolean> {
  if (response.status === 401) return true;
  if (response.status !== 400) return false;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown } | null;
  return body?.code === "INVALID_PASSWORD";
}

export function perIpSignInLimits(limits: SignInLimits): RequestHandler {
  return async (req, _res, next) => {
    try {
      const route = `${req.method} ${req.path}`;
      if (SIGN_IN_ATTEMPT_ROUTES.has(route)) await limits.hitAttempt(req.clientIp);
      if (REDEMPTION_ROUTES.has(route)) await limits.hitRedemption(req.clientIp);
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** Routes that send a mail to the address in the body. */
const MAIL_ROUTES = new Set([`POST ${P}/sign-in/magic-link`, `POST ${P}/request-password-reset`]);

export function failureLimits(limits: SignInLimits): RequestHandler {
  return async (req, _res, next) => {
    try {
      if (MAIL_ROUTES.has(`${req.method} ${req.path}`)) await limits.hitMailRequest(bodyText(req, "email"));
      const account = FAILURE_ACCOUNT[`${req.method} ${req.path}`]?.(req);
      if (account !== undefined) {
        await limits.checkFailures(account, req.clientIp);
        req.signInAccount = account;
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}

const INTERNAL_MESSAGE = "Something went wrong on our side; it has been logged.";

/**
 * The library answers refusals as `{code, message}`, switched-off and unknown routes as a plain
 * "Not Found" or an empty 404, and its own failures (a database error) as an empty 500. Every one
 * of them leaves in our shape, `{error: {code, message, details}}`; a 5xx says nothing of its
 * cause to the caller and is logged instead.
 */
async function inOurShape(response: Response, onServerError: (reason: string | undefined) => void): Promise<Response> {
  if (response.status < 400) return response;
  const json = response.headers.get("content-type")?.includes("application/json") ?? false;
  const body = json
    ? ((await response
        .clone()
        .json()
        .catch(() => null)) as { code?: unknown; message?: unknown; error?: unknown } | null)
    : null;
  if (body && typeof body === "object" && typeof body.error === "object" && body.error !== null && response.status < 500) return response;
  const reason = body && typeof body.code === "string" ? body.code : undefined;
  let error: ErrorBody["error"];
  if (response.status >= 500) {
    onServerError(reason);
    error = { code: "internal", message: INTERNAL_MESSAGE };
  } else if (!body && response.status === 404) {
    error = { code: "not_found", message: new NotFoundError("route").message };
  } else {
    const code = errorCodeForStatus(response.status);
    const message = body && typeof body.message === "string" && body.message ? body.message : "The request was refused.";
    error = { code, message, ...(reason ? { details: { reason } } : {}) };
  }
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify({ error } satisfies ErrorBody), { status: response.status, headers });
}

/** Our rules for what a library route may receive (server/auth/input.ts), by method and path. */
export const LIBRARY_INPUT: Record<string, { body?: z.ZodType; query?: z.ZodType }> = {
  [`POST ${P}/update-user`]: { body: updateUserBody },
  [`POST ${P}/reset-password`]: { body: resetPasswordBody, query: resetPasswordQuery },
};

/**
 * Refuses, with 400 validation_failed, what the library would store or look up unchecked: text
 * the database cannot keep anywhere in the body or query, and the fields of LIBRARY_INPUT. A
 * checked body is handed on as parsed (trimmed names, an empty image as null).
 */
export function checkLibraryInput(req: Request): void {
  for (const [where, value] of [
    ["body", req.body],
    ["query", req.query],
  ] as const) {
    const bad = findIllFormedText(value);
    if (bad) throw illFormedTextError(bad, where);
  }
  const rules = LIBRARY_INPUT[`${req.method} ${req.path}`];
  if (rules?.query) {
    const query = rules.query.safeParse(req.query ?? {});
    if (!query.success) throw zodToValidationError(query.error, "query");
  }
  if (rules?.body) {
    // A route that takes a body needs one, as ours do (server/http/route.ts): the library reads a
    // missing one as undefined and fails with a 500.
    if (req.body === undefined) throw new ValidationError("This route takes a JSON body (Content-Type: application/json); none was sent.");
    const body = rules.body.safeParse(req.body ?? {});
    if (!body.success) throw zodToValidationError(body.error, "body");
    req.body = body.data;
  }
}

/**
 * Library routes with a path parameter, which `disabledPaths` (exact paths only) cannot switch
 * off: the GET that turns a reset token into a redirect (ours is in the URL fragment, and a GET
 * never redeems), and the callback of the switched-off account deletion.
 */
const BLOCKED = [new RegExp(`^GET ${P}/reset-password/`), new RegExp(`^GET ${P}/delete-user/callback`)];

/** True for a library route the mount refuses (by method and full path, a template or a real one). */
export const isBlockedLibraryRoute = (method: string, path: string): boolean => BLOCKED.some((re) => re.test(`${method} ${path}`));

/**
 * An OIDC or social identity that is linked to no account gets one answer, whether an account
 * with its email exists ("account not linked") or not ("signup disabled"): no enumeration.
 */
function oneAnswerForUnknownIdentity(response: Response): Response {
  const location = response.headers.get("location");
  if (!location || !/[?&]error=(account_not_linked|signup_disabled)\b/.test(location)) return response;
  const relative = !/^[a-z][a-z0-9+.-]*:/i.test(location);
  const url = new URL(location, "http://relative.invalid");
  url.searchParams.set("error", "no_linked_account");
  url.searchParams.delete("error_description");
  const headers = new Headers(response.headers);
  headers.set("location", relative ? `${url.pathname}${url.search}${url.hash}` : url.toString());
  return new Response(null, { status: response.status, headers });
}

/**
 * The library answers 500 whatever went wrong inside it, a database it cannot reach included (it
 * keeps the error). When a trivial query cannot reach the database either, the answer is ours for
 * that case, as on our own routes: 503 `unavailable` with Retry-After (the device waits it out).
 */
async function refuseIfDatabaseUnreachable(db: Db): Promise<void> {
  const unavailable = await db.execute(sql`SELECT 1`).then(
    () => null,
    (err: unknown) => databaseUnavailable(err),
  );
  if (unavailable) throw unavailable;
}

export function authMount(auth: Auth, limits: SignInLimits, db: Db): RequestHandler {
  return async (req, res, next) => {
    try {
      if (isBlockedLibraryRoute(req.method, req.path)) throw new NotFoundError("route");
      checkLibraryInput(req);
      const onServerError = (reason: string | undefined) => req.log.error({ route: `${req.method} ${req.path}`, reason }, "the auth library failed to answer");
      const handle = toNodeHandler(async (request: globalThis.Request) => {
        const response = await auth.handler(request);
        if (response.status >= 500) await refuseIfDatabaseUnreachable(db);
        const account = req.signInAccount;
        if (account !== undefined) {
          if (await isWrongSecret(response)) await limits.recordFailure(account, req.clientIp);
          else if (response.ok) await limits.clearFailures(account, req.clientIp);
        }
        return inOurShape(oneAnswerForUnknownIdentity(response), onServerError);
      });
      await handle(req, res);
    } catch (err) {
      next(err);
    }
  };
}

declare module "express-serve-static-core" {
  interface Request {
    /** The account a sign-in secret is being tried for (failure limits). */
    signInAccount?: string;
  }
}
