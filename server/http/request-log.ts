/**
 * One log line per request (pino-http), at a level that says whether anyone need read it: a
 * request that went well and fast is `debug` (SVC_LOG_LEVEL=debug shows them all); one refused is
 * `info`, one slow `warn`, one failed on our side `error`. Never a secret: no headers (cookies,
 * bearer tokens), no bodies, no query string.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Logger, LevelWithSilent } from "pino";
import { pinoHttp } from "pino-http";
import { serializeError } from "./log.js";

/** A request that takes longer than this (ms) is logged at `warn`: the app's steps aim to stay under a second. */
export const SLOW_REQUEST_MS = 1000;

/** A live shape request waits for a change by design (sync/SPEC.md): its length says nothing. */
const WAITS_BY_DESIGN = /[?&]live=true(?:&|$)/;

export function requestLogLevel(statusCode: number, ms: number, url: string, slowMs = SLOW_REQUEST_MS): LevelWithSilent {
  if (statusCode >= 500) return "error";
  if (ms > slowMs && !WAITS_BY_DESIGN.test(url)) return "warn";
  if (statusCode >= 400) return "info";
  return "debug";
}

/** When each request arrived, for its duration at the time its line is written. */
const arrivedAt = new WeakMap<IncomingMessage, number>();

export function requestLogger(logger: Logger, slowMs = SLOW_REQUEST_MS) {
  const log = pinoHttp({
    logger,
    genReqId: (req) => (req as IncomingMessage & { id: string }).id,
    customLogLevel: (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) =>
      requestLogLevel(res.statusCode, performance.now() - (arrivedAt.get(req) ?? performance.now()), req.originalUrl ?? req.url ?? "", slowMs),
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url.split("?")[0] }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: serializeError,
    },
  });
  return (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    arrivedAt.set(req, performance.now());
    log(req, res, next);
  };
}
