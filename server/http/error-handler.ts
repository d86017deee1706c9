/** The one place where errors become HTTP answers: `{"error": {"code", "message", "details"?}}`. */
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import type { ErrorBody } from "../../shared/errors.js";
import { AppError, databaseUnavailable, errorCodeForStatus, NotFoundError, PayloadTooLargeError, RateLimitedError, UnavailableError, ValidationError } from "./errors.js";

export function notFoundHandler(): RequestHandler {
  return (_req, _res, next) => next(new NotFoundError("route"));
}


/**
 * Errors raised by the libraries under us that are the caller's fault, as ours: Express's router
 * (a path parameter that is not valid percent-encoding: a URIError with status 400) and
 * body-parser (invalid JSON, too large, an unsupported charset or encoding, an aborted upload).
 * Anything else with a 4xx status that the library marked safe to show gets the code of its status.
 * Null for everything else: a 500.
 */
function libraryClientError(err: unknown): AppError | null {
  if (typeof err !== "object" || err === null) return null;
  const e = err as { type?: unknown; status?: unknown; statusCode?: unknown; expose?: unknown; limit?: unknown };
  if (e.type === "entity.parse.failed") return new ValidationError("The body is not valid JSON.");
  if (e.type === "entity.too.large") return new PayloadTooLargeError(Number(e.limit ?? 0));
  const status = typeof e.status === "number" ? e.status : typeof e.statusCode === "number" ? e.statusCode : 0;
  if (status < 400 || status > 499) return null;
  if (err instanceof URIError) return new ValidationError("The path holds malformed percent-encoding.");
  if (e.type === "charset.unsupported" || e.type === "encoding.unsupported") {
    return new AppError(415, "unsupported_media_type", "The body's charset or Content-Encoding is not supported: send UTF-8 JSON, plain or gzip, deflate or br.");
  }
  if (e.expose !== true) return null;
  const code = errorCodeForStatus(status);
  return code === "validation_failed" ? new ValidationError("The request is malformed.") : new AppError(status, code, "The request was refused.");
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let e: AppError;
    if (err instanceof AppError) e = err;
    else {
      const mapped = libraryClientError(err);
      const unavailable = mapped ? null : databaseUnavailable(err);
      if (mapped) e = mapped;
      else if (unavailable) {
        logger.warn({ err, reqId: req.id }, "database unavailable");
        e = unavailable;
      } else {
        logger.error({ err, reqId: req.id }, "unhandled error");
        e = new AppError(500, "internal", "Something went wrong on our side; it has been logged.");
      }
    }
    if (e instanceof RateLimitedError || e instanceof UnavailableError) res.setHeader("Retry-After", String(e.retryAfterSeconds));
    if (res.headersSent) return;
    const body: ErrorBody = { error: { code: e.code, message: e.message, ...(e.details !== undefined ? { details: e.details } : {}) } };
    res.status(e.status).json(body);
  };
}
