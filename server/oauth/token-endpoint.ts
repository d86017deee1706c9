/**
 * POST /oauth/token: the authorization_code grant for public clients (no client secret; PKCE is
 * the proof). Answers RFC 6749 JSON errors, never our error body, and is never cached. Limited
 * per client address before the body is read and per client_id after (server/oauth/limits.ts):
 * 429 with Retry-After and `error: "rate_limited"`.
 */
import express, { Router, type NextFunction, type Request, type Response } from "express";
import { z } from "zod";
import { RateLimitedError } from "../errors/classes.js";
import { ACCESS_TOKEN_SECONDS } from "./access-tokens.js";
import type { OAuthContext } from "./context.js";
import { redeemCode } from "./grants.js";

export const tokenRequestSchema = z.object({
  grant_type: z.literal("authorization_code"),
  code: z.string().min(1).max(200),
  redirect_uri: z.string().min(1).max(2000),
  client_id: z.string().min(1).max(2000),
  code_verifier: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/),
  resource: z.string().min(1).max(2000),
});

function oauthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).json({ error, error_description: description });
}

/** Runs a limit; a refusal is answered here (429, OAuth-style body), anything else goes to `next`. */
function limited(res: Response, next: NextFunction, hit: Promise<void>, then: () => void): void {
  hit.then(then, (err: unknown) => {
    if (!(err instanceof RateLimitedError)) return next(err);
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Retry-After", String(err.retryAfterSeconds));
    oauthError(res, 429, "rate_limited", err.message);
  });
}

export function tokenRouter(ctx: OAuthContext): Router {
  const router = Router();
  const perAddress = (req: Request, res: Response, next: NextFunction) => limited(res, next, ctx.limits.hitToken(req.clientIp), next);
  const perClient = (req: Request, res: Response, next: NextFunction) => {
    const clientId = (req.body as Record<string, unknown> | undefined)?.client_id;
    if (typeof clientId !== "string" || !clientId || clientId.length > 2000) return next();
    limited(res, next, ctx.limits.hitTokenClient(clientId), next);
  };
  router.post("/oauth/token", perAddress, express.urlencoded({ extended: false, limit: 16 * 1024, parameterLimit: 20 }), perClient, (req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Pragma", "no-cache");
    const raw = (req.body ?? {}) as Record<string, unknown>;
    if (raw.grant_type !== "authorization_code") return oauthError(res, 400, "unsupported_grant_type", "Only authorization_code is supported.");
    const body = tokenRequestSchema.safeParse(raw);
    if (!body.success) return oauthError(res, 400, "invalid_request", "code, redirect_uri, client_id, code_verifier and resource are required.");
    const b = body.data;
    if (b.resource !== ctx.resource) return oauthError(res, 400, "invalid_target", `The only resource here is ${ctx.resource}.`);
    redeemCode(ctx.db, b.code, { clientId: b.client_id, redirectUri: b.redirect_uri, resource: b.resource, codeVerifier: b.code_verifier })
      .then(async (r) => {
        if (!r.ok) return oauthError(res, 400, "invalid_grant", r.reason);
        const scope = r.scopes.join(" ");
        const accessToken = await ctx.tokens.issue({ sub: r.userId, clientId: b.client_id, scope, grantId: r.grantId });
        res.json({ access_token: accessToken, token_type: "Bearer", expires_in: ACCESS_TOKEN_SECONDS, scope });
      })
      .catch(next);
  });
  return router;
}
