/**
 * Spec "Second factors" 2: a pending session (two-factor on, no factor proven yet) is refused with
 * 403 mfa_required on every route except those that finish or abandon sign-in. Runs right after
 * authentication, in front of our routes and the auth library's mount alike; the list is exact
 * (method and path), so anything not on it, including paths added by a future library version,
 * is refused.
 */
import type { RequestHandler } from "express";
import { AUTH_BASE_PATH } from "../auth/auth.js";
import { MfaRequiredError } from "../errors/classes.js";

export const FINISH_OR_ABANDON_SIGN_IN = new Set(
  [
    "POST /two-factor/verify-totp",
    "POST /two-factor/verify-backup-code",
    "POST /passkey/authenticate/options",
    "POST /passkey/authenticate/verify",
    "POST /sign-out",
    "GET /get-session",
  ].map((route) => route.replace(" ", ` ${AUTH_BASE_PATH}`)),
);

export function mfaGate(): RequestHandler {
  return (req, _res, next) => {
    if (!req.mfaPending) return next();
    if (FINISH_OR_ABANDON_SIGN_IN.has(`${req.method} ${req.path}`)) return next();
    next(new MfaRequiredError());
  };
}

declare module "express-serve-static-core" {
  interface Request {
    /** The session is signed in but has not proven the second factor its user needs. */
    mfaPending?: boolean;
  }
}
