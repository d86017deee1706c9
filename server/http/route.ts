/**
 * Route definitions: method, path, authentication mode and the shared zod schemas of params,
 * query, body and response. The same list validates requests at the edge and generates the
 * OpenAPI document (server/http/openapi.ts), so the two cannot drift apart.
 */
import type { NextFunction, Request, Response, Router } from "express";
import { z } from "zod";
import type { Auth } from "../auth/auth.js";
import type { Config } from "../config.js";
import type { Actor } from "../db/actor.js";
import type { Db } from "../db/client.js";
import { uuidSchema } from "../../shared/ids.js";
import { findIllFormedText } from "../../shared/text.js";
import { UnauthenticatedError, ValidationError } from "../errors/classes.js";
import { illFormedTextError, zodToValidationError } from "../errors/zod.js";
import { answerEtag, foldIfMatch } from "./etag.js";

/** The params of a route whose path names one row by `:id`. */
export const idParams = z.object({ id: uuidSchema });

/** What route factories need from the running service, handed in by the route table (server/routes.ts). */
export interface RouteDeps {
  db: Db;
  config: Config;
  auth: Auth;
}

/** Spec "Route authentication modes": required (default), optional or none. */
export type AuthMode = "required" | "optional" | "none";

export interface RouteContext<P, Q, B> {
  req: Request;
  res: Response;
  actor: Actor;
  params: P;
  query: Q;
  body: B;
}

export interface RouteDef<P = unknown, Q = unknown, B = unknown, R = unknown> {
  method: "get" | "post" | "patch" | "put" | "delete";
  /** Express path, e.g. /api/v1/things/:id */
  path: string;
  summary: string;
  tag: string;
  auth?: AuthMode;
  /** True for routes that accept `Authorization: Bearer` (spec: history and code lookups). */
  bearer?: boolean;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  response: z.ZodType<R>;
  /**
   * True where the body holds values checked one by one later (push: each op's args, so one bad
   * op is dropped instead of refusing the batch). Every other body, and every path and query, is
   * refused with 400 when it holds text the database cannot keep (shared/text.ts).
   */
  bodyTextCheckedLater?: boolean;
  /** The body may be left out (read as `{}`): an action whose options are all optional (inbox accept). */
  bodyOptional?: boolean;
  /** Success status; 200 unless given. */
  status?: number;
  /** Media type of a success body that is not JSON (a PDF, a zip, a file's bytes): `response` is then not used. */
  produces?: string;
  /** Media type of a request body the handler reads raw itself (an upload), instead of `body`. */
  consumes?: string;
  /** Set by defineWrite: the answer carries the write's transaction id in `x-txid`. */
  answersTxid?: boolean;
  handler(ctx: RouteContext<P, Q, B>): Promise<R>;
}

/**
 * What a write answers: its body and the transaction it committed in. A device drops its
 * optimistic copy once that txid arrives on a shape stream (sync/SPEC.md PU7).
 */
export interface Written<R> {
  result: R;
  txid: string;
}

/** The header every REST write answers its transaction id in (and the only place it is set). */
export const TXID_HEADER = "x-txid";

export const routes: RouteDef<any, any, any, any>[] = [];

export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined, R = unknown>(def: RouteDef<P, Q, B, R>): RouteDef<P, Q, B, R> {
  return def;
}

/**
 * A write route: its handler answers a Written (usually straight from the module's service), and
 * the txid goes out in the x-txid header here, the same way for every write.
 */
export function defineWrite<P = Record<string, never>, Q = Record<string, never>, B = undefined, R = unknown>(
  def: Omit<RouteDef<P, Q, B, R>, "handler" | "answersTxid"> & { handler(ctx: RouteContext<P, Q, B>): Promise<Written<R>> },
): RouteDef<P, Q, B, R> {
  return {
    ...def,
    answersTxid: true,
    async handler(ctx) {
      const { result, txid } = await def.handler(ctx);
      ctx.res.setHeader(TXID_HEADER, txid);
      return result;
    },
  };
}

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string, checkText = true): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw zodToValidationError(result.error, where);
  const bad = checkText ? findIllFormedText(result.data) : null;
  if (bad) throw illFormedTextError(bad, where);
  return result.data;
}

export function mount(router: Router, defs: RouteDef<any, any, any, any>[]): void {
  for (const def of defs) {
    routes.push(def);
    router[def.method](def.path, async (req: Request, res: Response, next: NextFunction) => {
      try {
        const actor = req.actor;
        if ((def.auth ?? "required") === "required" && !actor) throw new UnauthenticatedError();
        // A route that declares a body needs one: a request without (the body parser leaves
        // req.body undefined) is not an empty object, or an empty POST would create a blank thing.
        const rawBody = def.method === "get" ? req.body : foldIfMatch(req, def.body, req.body);
        if (def.body && rawBody === undefined && !def.bodyOptional)
          throw new ValidationError("This route takes a JSON body (Content-Type: application/json); none was sent.");
        const ctx = {
          req,
          res,
          actor: actor as Actor,
          params: parse(def.params, req.params, "params"),
          query: parse(def.query, req.query, "query"),
          body: parse(def.body, rawBody === undefined && def.bodyOptional ? {} : rawBody, "body", !def.bodyTextCheckedLater),
        };
        const result = await def.handler(ctx);
        answerEtag(req, res, result);
        if (!res.headersSent) res.status(def.status ?? 200).json(result);
      } catch (err) {
        next(err);
      }
    });
  }
}

declare module "express-serve-static-core" {
  interface Request {
    actor?: Actor;
    /** Client address from the socket, walked through SVC_TRUSTED_PROXIES only. */
    clientIp: string;
    id: string;
  }
}
