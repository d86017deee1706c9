/**
 * Errors as HTTP answers: the status, headers and body the error handler (server/http/error-handler.ts)
 * sends for an AppError, the errors of the libraries under us that are the caller's fault, the
 * status-to-code table for a 4xx a library answered with only a status, and a database that cannot
 * be reached (a 503, not a 500).
 */
import type { ErrorBody, ErrorCode } from "../../shared/errors.js";
import { AppError, PayloadTooLargeError, RateLimitedError, UnavailableError, ValidationError } from "./classes.js";

/** What an AppError is on the wire: `{"error": {"code", "message", "details"?}}` with its status. */
export function httpAnswer(e: AppError): { status: number; headers: Record<string, string>; body: ErrorBody } {
  const headers: Record<string, string> = e instanceof RateLimitedError || e instanceof UnavailableError ? { "Retry-After": String(e.retryAfterSeconds) } : {};
  const body: ErrorBody = { error: { code: e.code, message: e.message, ...(e.details !== undefined ? { details: e.details } : {}) } };
  return { status: e.status, headers, body };
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

/**
 * Errors raised by the libraries under us that are the caller's fault, as ours: Express's router
 * (a path parameter that is not valid percent-encoding: a URIError with status 400) and
 * body-parser (invalid JSON, too large, an unsupported charset or encoding, an aborted upload).
 * Anything else with a 4xx status that the library marked safe to show gets the code of its status.
 * Null for everything else: a 500.
 */
export function libraryClientError(err: unknown): AppError | null {
  if (typeof err !== "object" || err === null) return null;
  const e = err as { type?: unknown; status?: unknown; statusCode?: unknown; expose?: unknown; limit?: unknown };
  if (e.type === "entity.parse.failed") return new ValidationError("The body is not valid JSON.");
  if (e.type === "entity.too.large") return new PayloadTooLargeError(Number(e.limit ?? 0));
  const status = typeof e.status === "number" ? e.status : typeof e.statusCode === "number" ? e.statusCode : 0;
  if (status < 400 || status > 499) return null;
  if (err instanceof URIError) return new ValidationError("The path holds malformed percent-encoding.");
  if (e.type === "charset.unsupported" || e.type === "encoding.unsupported") {
    return new AppError(
      415,
      "unsupported_media_type",
      "The body's charset or Content-Encoding is not supported: send UTF-8 JSON, plain or gzip, deflate or br.",
    );
  }
  if (e.expose !== true) return null;
  const code = errorCodeForStatus(status);
  return code === "validation_failed" ? new ValidationError("The request is malformed.") : new AppError(status, code, "The request was refused.");
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
  return connectionFailure(err, 0)
    ? new UnavailableError(DATABASE_RETRY_AFTER_SECONDS, "The database cannot be reached for the moment; try again shortly.")
    : null;
}

function connectionFailure(err: unknown, depth: number): boolean {
  if (typeof err !== "object" || err === null || depth > 5) return false;
  const { code, message, cause, errors } = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string" && (CONNECTION_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof message === "string" && CONNECTION_LOST.test(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => connectionFailure(e, depth + 1))) return true;
  return connectionFailure(cause, depth + 1);
}
