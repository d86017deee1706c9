/**
 * /mcp: Streamable HTTP (stateless: one server and transport per POST) behind OAuth access tokens
 * only. A cookie, a personal token or anything else gets 401 with WWW-Authenticate naming the
 * protected resource metadata. The grant is loaded on every call, so a revoked grant stops at once
 * and the actor always has the grant's current scopes and locations.
 */
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express, { Router, type Request } from "express";
import type { Actor } from "../db/actor.js";
import { checkJsonBytes } from "../http/edge.js";
import type { OAuthContext } from "../oauth/context.js";
import { liveGrant } from "../oauth/grants.js";
import { mcpServer, readOnlyToolCall } from "./tools.js";

/** JSON-RPC bodies of tool calls are small; a thing with notes fits easily. */
const MCP_BODY_LIMIT = 256 * 1024;

interface GrantExtra extends Record<string, unknown> {
  actor: Actor;
}

export function mcpRouter(ctx: OAuthContext, undoWindowMs: number): Router {
  const verifier = {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      let claims;
      try {
        claims = await ctx.tokens.verify(token);
      } catch {
        throw new InvalidTokenError("The access token is invalid or expired.");
      }
      const grant = await liveGrant(ctx.db, claims.grantId);
      if (!grant || grant.userId !== claims.sub || grant.clientId !== claims.clientId) throw new InvalidTokenError("The grant behind this token was revoked.");
      // The token's scope can only narrow what the grant holds now.
      const scopes = grant.scopes.filter((s) => claims.scope.split(" ").includes(s));
      const actor: Actor = {
        type: "mcp",
        userId: grant.userId,
        displayName: grant.userName,
        tokenId: grant.id,
        mfaProven: grant.mfaProven,
        locationScope: grant.locationIds,
        canWrite: scopes.includes("svc:write"),
      };
      const extra: GrantExtra = { actor };
      return { token, clientId: claims.clientId, scopes, expiresAt: claims.exp, resource: new URL(ctx.resource), extra };
    },
  };
  const router = Router();
  router.all(
    "/mcp",
    requireBearerAuth({
      verifier,
      requiredScopes: ["svc:read"],
      resourceMetadataUrl: `${ctx.issuer}/.well-known/oauth-protected-resource/mcp`,
      expectedResource: new URL(ctx.resource),
    }),
    (req, res, next) => {
      // Stateless: no sessions to resume (GET) or end (DELETE).
      if (req.method !== "POST")
        return void res
          .status(405)
          .set("Allow", "POST")
          .json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null });
      next();
    },
    // UTF-8 and at most MAX_JSON_DEPTH levels deep, like every JSON body (server/http/edge.ts).
    express.json({ limit: MCP_BODY_LIMIT, verify: checkJsonBytes }),
    async (req: Request, res, next) => {
      try {
        const actor = (req.auth?.extra as GrantExtra | undefined)?.actor;
        if (!actor) throw new Error("requireBearerAuth passed without an actor");
        const refused = readOnlyToolCall(actor, req.body);
        if (refused) return void res.json(refused);
        const server = mcpServer(actor, { db: ctx.db, undoWindowMs });
        const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true }); // no sessionIdGenerator: stateless;
        res.on("close", () => {
          void transport.close();
          void server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res, req.body);
      } catch (err) {
        next(err);
      }
    },
  );
  return router;
}
