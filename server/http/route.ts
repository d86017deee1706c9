/**
 * Route definitions: method, path, authentication mode and the shared zod schemas of params,
 * query, body and response. The same list validates requests at the edge and generates the
 * OpenAPI document (server/http/openapi.ts), so the two cannot drift apart.
 */
import type { NextFunction, Request, Response, Router } from "express";
import type { z } from "zod";
import type { Actor } from "../auth/actor.js";
import { findIllFormedText } from "../../shared/text.js";
import { UnauthenticatedError, ValidationError } from "../errors/classes.js";
import { illFormedTextError, zodToValidationError } from "../errors/zod.js";

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
  /** Success status; 200 unless given. */
  status?: number;
  handler(ctx: RouteContext<P, Q, B>): Promise<R>;
}

export const routes: RouteDef<any, any, any, any>[] = [];

export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined, R = unknown>(def: RouteDef<P, Q, B, R>): RouteDef<P, Q, B, R> {
  return def;
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
        if (def.body && req.body === undefined) throw new ValidationError("This route takes a JSON body (Content-Type: application/json); none was sent.");
        const ctx = {
          req,
          res,
          actor: actor as Actor,
          params: parse(def.params, req.params, "params"),
          query: parse(def.query, req.query, "query"),
          body: parse(def.body, req.body, "body", !def.bodyTextCheckedLater),
        };
        const result = await def.handler(ctx);
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
