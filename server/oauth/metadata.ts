/** RFC 8414 authorization server metadata and RFC 9728 protected resource metadata, at the root. */
import { Router, type RequestHandler } from "express";
import { OAUTH_SCOPES } from "../../shared/oauth.js";
import type { OAuthContext } from "./context.js";

export function metadataRouter(ctx: OAuthContext): Router {
  const router = Router();
  // Browser-based MCP clients read these cross-origin; they hold nothing secret.
  const cors: RequestHandler = (_req, res, next) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    next();
  };
  router.get("/.well-known/oauth-authorization-server", cors, (_req, res) => {
    res.json({
      issuer: ctx.issuer,
      authorization_endpoint: `${ctx.issuer}/oauth/authorize`,
      token_endpoint: `${ctx.issuer}/oauth/token`,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      scopes_supported: OAUTH_SCOPES,
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });
  const resource: RequestHandler = (_req, res) => {
    res.json({ resource: ctx.resource, authorization_servers: [ctx.issuer], scopes_supported: OAUTH_SCOPES, bearer_methods_supported: ["header"] });
  };
  router.get("/.well-known/oauth-protected-resource", cors, resource);
  router.get("/.well-known/oauth-protected-resource/mcp", cors, resource);
  return router;
}
