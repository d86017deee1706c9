/**
 * /oauth/authorize: authorization code with PKCE (S256 only) for clients identified by a client
 * metadata document. Until the client and its redirect URI are proven, errors are a page here, never
 * a redirect (so we are no open redirector); after that they go back to the client as RFC 6749 errors.
 * GET shows the consent page to a signed-in session; POST (same-site checked like every cookie
 * write) stores the grant and sends the code.
 */
import express, { Router, type Request, type Response } from "express";
import { z } from "zod";
import { uuidSchema } from "../../shared/ids.js";
import { OAUTH_SCOPES, type OAuthScope } from "../../shared/oauth.js";
import { visibleLocations } from "../access/visible.js";
import { type Actor, withActor } from "../db/actor.js";
import { ClientMetadataError, type ClientMetadata } from "./client-metadata.js";
import { consentPage, errorPage, signInPage } from "./consent-page.js";
import type { OAuthContext } from "./context.js";
import { grantAndCode } from "./grants.js";

const PKCE = /^[A-Za-z0-9._~-]{43,128}$/;

export const authorizeRequestSchema = z.object({
  response_type: z.literal("code"),
  code_challenge: z.string().regex(PKCE),
  code_challenge_method: z.literal("S256"),
  resource: z.string(),
  scope: z.string().max(200).optional(),
  state: z.string().max(1000).optional(),
});

export const authorizeClientSchema = z.object({ client_id: z.string().min(1).max(2000), redirect_uri: z.string().min(1).max(2000) });

type Params = Record<string, unknown>;

class PageError extends Error {}

function redirectWith(res: Response, redirectUri: string, params: Record<string, string | undefined>): void {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  res.redirect(303, url.href);
}

/** A CSP source for a redirect URI: its origin, or its scheme for an app's own scheme (com.example.app:/cb). */
function formTarget(redirectUri: string): string {
  const url = new URL(redirectUri);
  return url.protocol === "https:" || url.protocol === "http:" ? url.origin : url.protocol;
}

/** The client and its redirect URI, checked against its document; a PageError otherwise. */
async function provenClient(ctx: OAuthContext, p: Params): Promise<{ client: ClientMetadata; redirectUri: string }> {
  const parsed = authorizeClientSchema.safeParse(p);
  if (!parsed.success) throw new PageError("The request names no client_id or redirect_uri.");
  let client: ClientMetadata;
  try {
    client = await ctx.clients.get(parsed.data.client_id);
  } catch (err) {
    throw new PageError(err instanceof ClientMetadataError ? err.message : "The app's description could not be read.");
  }
  if (!client.redirectUris.includes(parsed.data.redirect_uri)) throw new PageError("The redirect_uri is not one the app's description lists.");
  return { client, redirectUri: parsed.data.redirect_uri };
}

/** The requested scopes; svc:read is always part of a grant (every tool reads). */
function requestedScopes(scope: string | undefined): OAuthScope[] | null {
  const asked = (scope ?? "svc:read").split(" ").filter(Boolean);
  if (!asked.every((s): s is OAuthScope => (OAUTH_SCOPES as readonly string[]).includes(s))) return null;
  return OAUTH_SCOPES.filter((s) => s === "svc:read" || asked.includes(s));
}

/** The consent page's choices: the person's visible locations with their role in each. */
async function consentLocations(ctx: OAuthContext, actor: Actor) {
  const visible = await withActor(ctx.db, actor, visibleLocations);
  return visible.map(({ location, role }) => ({ id: location.id, name: location.name, role }));
}

const sessionActor = (req: Request): Actor | null => (req.actor?.type === "user" && req.actor.sessionId ? req.actor : null);

export function authorizeRouter(ctx: OAuthContext): Router {
  const router = Router();

  const handle = async (req: Request, res: Response, p: Params, decide: boolean) => {
    res.setHeader("Cache-Control", "no-store");
    // Nothing on this page may be framed by another site (clickjacking the Allow button).
    res.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
    let proven;
    try {
      proven = await provenClient(ctx, p);
    } catch (err) {
      if (err instanceof PageError) return void res.status(400).type("html").send(errorPage(err.message));
      throw err;
    }
    const { client, redirectUri } = proven;
    // Browsers apply form-action to the redirect that answers the form too, so the Allow/Deny
    // post may end at the app's redirect URI, and nowhere else.
    res.setHeader(
      "Content-Security-Policy",
      `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${formTarget(redirectUri)}; frame-ancestors 'none'`,
    );
    const state = typeof p.state === "string" ? p.state : undefined;
    const fail = (error: string, description: string) => redirectWith(res, redirectUri, { error, error_description: description, state, iss: ctx.issuer });
    const request = authorizeRequestSchema.safeParse(p);
    if (!request.success) return fail("invalid_request", "response_type=code, an S256 code_challenge and resource are required.");
    if (request.data.resource !== ctx.resource) return fail("invalid_target", `The only resource here is ${ctx.resource}.`);
    const scopes = requestedScopes(request.data.scope);
    if (!scopes) return fail("invalid_scope", `Scopes are ${OAUTH_SCOPES.join(" and ")}.`);
    const actor = sessionActor(req);
    if (!actor) return void res.status(401).type("html").send(signInPage(req.originalUrl));
    const locations = await consentLocations(ctx, actor);
    if (!decide) {
      const { state: _state, ...rest } = request.data;
      const hidden: Record<string, string> = {
        client_id: client.clientId,
        redirect_uri: redirectUri,
        ...rest,
        scope: scopes.join(" "),
        ...(state !== undefined ? { state } : {}),
      };
      const redirect = new URL(redirectUri);
      return void res.type("html").send(
        consentPage({
          clientName: client.clientName,
          clientHost: new URL(client.clientId).host,
          redirectHost: redirect.host,
          loopbackRedirect: redirect.protocol === "http:",
          requested: scopes,
          locations,
          hidden,
        }),
      );
    }
    if (p.decision !== "allow") return fail("access_denied", "The person did not allow access.");
    // Read as every id is (shared/ids.ts): a location picked in upper case is the same location.
    const pickedLocations = [p.location ?? []]
      .flat()
      .filter((l): l is string => typeof l === "string")
      .map((l) => uuidSchema.safeParse(l).data ?? l);
    const visible = new Set(locations.map((l) => l.id));
    if (!pickedLocations.length || !pickedLocations.every((l) => visible.has(l)))
      return void res.status(400).type("html").send(errorPage("Pick at least one of your locations."));
    const pickedScopes = [p.scope_choice ?? []].flat();
    const granted = scopes.filter((s) => s === "svc:read" || pickedScopes.includes(s));
    const code = await grantAndCode(
      ctx.db,
      { userId: actor.userId, clientName: client.clientName, scopes: granted, locationIds: [...new Set(pickedLocations)], mfaProven: actor.mfaProven },
      { clientId: client.clientId, redirectUri, codeChallenge: request.data.code_challenge, resource: request.data.resource },
    );
    redirectWith(res, redirectUri, { code, state, iss: ctx.issuer });
  };

  router.get("/oauth/authorize", (req, res, next) => {
    handle(req, res, req.query, false).catch(next);
  });
  // The consent form is small; a repeated `location` field arrives as an array.
  router.post("/oauth/authorize", express.urlencoded({ extended: false, limit: 16 * 1024, parameterLimit: 200 }), (req, res, next) => {
    handle(req, res, (req.body ?? {}) as Params, true).catch(next);
  });
  return router;
}
