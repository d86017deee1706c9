/** The one place where errors become HTTP answers (the mapping itself: server/errors/http.ts). */
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { AppError, NotFoundError } from "../errors/classes.js";
import { databaseUnavailable, httpAnswer, libraryClientError } from "../errors/http.js";

export function notFoundHandler(): RequestHandler {
  return (_req, _res, next) => next(new NotFoundError("route"));
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
    const answer = httpAnswer(e);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    if (res.headersSent) return;
    res.status(answer.status).json(answer.body);
  };
}
