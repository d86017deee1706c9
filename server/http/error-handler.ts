/** The one place where errors become HTTP answers: `{"error": {"code", "message", "details"?}}`. */
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import type { ErrorBody } from "../../shared/errors.js";
import { AppError, NotFoundError, PayloadTooLargeError, RateLimitedError, UnavailableError, ValidationError } from "./errors.js";

export function notFoundHandler(): RequestHandler {
  return (_req, _res, next) => next(new NotFoundError("route"));
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, req, res, _next) => {
    let e: AppError;
    if (err instanceof AppError) e = err;
    else if ((err as { type?: string }).type === "entity.parse.failed") e = new ValidationError("The body is not valid JSON.");
    else if ((err as { type?: string }).type === "entity.too.large") e = new PayloadTooLargeError(Number((err as { limit?: number }).limit ?? 0));
    else {
      logger.error({ err, reqId: req.id }, "unhandled error");
      e = new AppError(500, "internal", "Something went wrong on our side; it has been logged.");
    }
    if (e instanceof RateLimitedError || e instanceof UnavailableError) res.setHeader("Retry-After", String(e.retryAfterSeconds));
    if (res.headersSent) return;
    const body: ErrorBody = { error: { code: e.code, message: e.message, ...(e.details !== undefined ? { details: e.details } : {}) } };
    res.status(e.status).json(body);
  };
}
