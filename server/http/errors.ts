/**
 * The error classes. Each failure has a stable snake_case code (shared/errors.ts) and a status;
 * they are mapped to HTTP in one place (errorHandler in server/http/app.ts). Messages tell the
 * caller how to fix the problem.
 */
import type { ZodError } from "zod";
import type { ErrorCode } from "../../shared/errors.js";
import { ILL_FORMED_TEXT_MESSAGE } from "../../shared/text.js";

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, details?: unknown) {
    super(400, "validation_failed", message, details);
  }
}

/** A command name that is not one the caller may run (a pushed op outside sync/ops.ts: reason unknown_op). */
export class UnknownCommandError extends ValidationError {
  constructor(name: string) {
    super(`"${name.slice(0, 64)}" is not an operation this server accepts; only the ops of the sync protocol can be pushed.`, { name: name.slice(0, 64) });
  }
}

export class UnauthenticatedError extends AppError {
  constructor(message = "Sign in first.") {
    super(401, "unauthenticated", message);
  }
}

export class ForbiddenError extends AppError {
  constructor(message = "You are not allowed to do this.", details?: unknown) {
    super(403, "forbidden", message, details);
  }
}

export class MfaRequiredError extends AppError {
  constructor() {
    super(403, "mfa_required", "Finish signing in with your second factor first.");
  }
}

export class ReauthRequiredError extends AppError {
  constructor() {
    super(403, "reauth_required", "Confirm your password again to do this.");
  }
}

/** Used both for absent rows and for rows the caller may not see, so existence never leaks. */
export class NotFoundError extends AppError {
  constructor(what = "record") {
    super(404, "not_found", `No such ${what}, or you cannot see it.`);
  }
}

export class VersionConflictError extends AppError {
  constructor(current: number, details?: Record<string, unknown>) {
    super(409, "version_conflict", "Someone changed this since you loaded it; reload and try again.", {
      rowVersion: current,
      ...details,
    });
  }
}

export class ConflictError extends AppError {
  constructor(message: string, details?: unknown) {
    super(409, "conflict", message, details);
  }
}

export class GoneError extends AppError {
  constructor(what = "record") {
    super(410, "gone", `This ${what} was deleted.`);
  }
}

export class UndoExpiredError extends AppError {
  constructor() {
    super(409, "undo_expired", "The undo window for this change has passed, or it was already undone.");
  }
}

export class SignupClosedError extends AppError {
  constructor() {
    super(403, "signup_closed", "Sign-up is closed on this server; ask a member for an invite.");
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(maxBytes: number, extra: Record<string, unknown> = {}, message = `The request body is larger than ${maxBytes} bytes.`) {
    super(413, "payload_too_large", message, { maxBytes, ...extra });
  }
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, "rate_limited", `Too many requests; try again in ${retryAfterSeconds} s.`, { retryAfterSeconds });
  }
}

/** The location is not (or no longer) visible to the actor: reads as not found (sync reason not_visible). */
export class LocationNotVisibleError extends NotFoundError {
  constructor() {
    super("location");
  }
}

/** A pushed op referred to a row whose create was dropped earlier in the same batch (sync/SPEC.md DR4). */
export class DependsOnDroppedError extends AppError {
  constructor(readonly dependsOnOpId: string | undefined) {
    super(409, "conflict", `This change depended on an earlier change that did not go through${dependsOnOpId ? ` (op ${dependsOnOpId})` : ""}.`, {
      dependsOnOpId,
    });
  }
}

export class ClientTooOldError extends AppError {
  constructor(minProtocol: number) {
    super(426, "client_too_old", "This app is too old for the server; update it (your changes are kept and sync after the update).", { minProtocol });
  }
}

export class UnavailableError extends AppError {
  constructor(readonly retryAfterSeconds: number, message = "The server is busy; try again shortly.") {
    super(503, "unavailable", message, { retryAfterSeconds });
  }
}

/** How long a device waits before trying again while the database cannot be reached. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** Socket failures on the way to the database. */
const CONNECTION_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT"]);
/**
 * SQLSTATEs of a database that is going away, starting or full: class 08 (connection exception),
 * admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down) and
 * too_many_connections.
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** node-postgres's own words for a connection that died under it. */
const CONNECTION_LOST = /^Connection terminated\b|is not queryable/;

/**
 * The database cannot be reached right now (it restarts, the network to it broke, it takes no
 * more connections): a 503 the device waits out, not a 500. Looks through the wrappers drizzle
 * and the libraries put around the driver's error (`cause`, `errors`).
 */
export function databaseUnavailable(err: unknown): UnavailableError | null {
  return connectionFailure(err, 0) ? new UnavailableError(DATABASE_RETRY_AFTER_SECONDS, "The database cannot be reached for the moment; try again shortly.") : null;
}

function connectionFailure(err: unknown, depth: number): boolean {
  if (typeof err !== "object" || err === null || depth > 5) return false;
  const { code, message, cause, errors } = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof message === "string" && CONNECTION_LOST.test(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => connectionFailure(e, depth + 1))) return true;
  return connectionFailure(cause, depth + 1);
}

/** A zod failure as our 400, each issue with its dotted path under `prefix` (body, query, args...). */
export function zodToValidationError(err: ZodError, prefix = ""): ValidationError {
  const issues = err.issues.map((i) => ({ path: [prefix, ...i.path.map(String)].filter(Boolean).join("."), message: i.message }));
  const first = issues[0];
  return new ValidationError(first ? `${first.path || "body"}: ${first.message}` : "Invalid input.", { issues });
}

/** Text the database cannot keep (shared/text.ts), at `path` under `prefix`. */
export function illFormedTextError(path: (string | number)[], prefix: string): ValidationError {
  const at = [prefix, ...path.map(String)].filter(Boolean).join(".");
  return new ValidationError(`${at || "body"}: ${ILL_FORMED_TEXT_MESSAGE}.`, { issues: [{ path: at, message: ILL_FORMED_TEXT_MESSAGE }] });
}

/** Our code for a 4xx a library answered with only a status; anything else it refused is a malformed request. */
const CODE_BY_STATUS: Partial<Record<number, ErrorCode>> = {
  401: "unauthenticated",
  403: "forbidden",
  404: "not_found",
  409: "conflict",
  410: "gone",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
};

export const errorCodeForStatus = (status: number): ErrorCode => CODE_BY_STATUS[status] ?? "validation_failed";
