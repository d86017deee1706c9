/**
 * The OpenAPI description of what the authorization server and /mcp answer (server/oauth/*.ts,
 * server/mcp/route.ts). They answer in the OAuth and JSON-RPC shapes, not our error body. Listed
 * only when they are served (SVC_PUBLIC_URL is https).
 */
import { z } from "zod";
import type { DescribedOperations, OpenApiOperation } from "../http/openapi.js";
import { authorizeClientSchema, authorizeRequestSchema } from "./authorize.js";
import { tokenRequestSchema } from "./token-endpoint.js";

const json = (schema: unknown) => ({ "application/json": { schema } });
const toSchema = (s: z.ZodType) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(s, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
};

const oauthError = {
  type: "object",
  properties: { error: { type: "string" }, error_description: { type: "string" } },
  required: ["error"],
};
const html = { "text/html": { schema: { type: "string" } } };
const redirect = (what: string) => ({
  description: what,
  headers: { Location: { schema: { type: "string" }, description: "The client's redirect_uri with the answer in its query." } },
});

/** client_id, redirect_uri, response_type, code_challenge(_method), resource, scope, state. */
const authorizeParams = toSchema(authorizeClientSchema.extend(authorizeRequestSchema.shape));

const metadata = (summary: string): OpenApiOperation => ({
  summary,
  tags: ["oauth"],
  security: [],
  responses: { 200: { description: "OK (readable cross-origin)", content: json({ type: "object", additionalProperties: true }) } },
});

const mcpRefused: OpenApiOperation = {
  summary: "Not served: /mcp is stateless (no stream to resume, no session to end)",
  tags: ["mcp"],
  security: [{ oauth: ["svc:read"] }],
  responses: { 405: { description: "Method not allowed (Allow: POST), as a JSON-RPC error", content: json({ type: "object" }) } },
};

export function oauthOperations(): DescribedOperations {
  const authorize = (decide: boolean): OpenApiOperation => ({
    summary: decide
      ? "The consent form's answer (decision=allow with the chosen location ids and scope_choice, or deny): stores the grant and redirects with a code"
      : "The consent page for a signed-in person (authorization code with PKCE, S256; the client is identified by its client metadata document URL)",
    tags: ["oauth"],
    security: [{ session: [] }],
    ...(decide
      ? {
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": {
                schema: {
                  ...authorizeParams,
                  properties: {
                    ...(authorizeParams.properties as object),
                    decision: { enum: ["allow", "deny"] },
                    location: { type: "array", items: { type: "string" } },
                    scope_choice: { type: "array", items: { type: "string" } },
                  },
                },
              },
            },
          },
        }
      : {
          parameters: Object.entries(authorizeParams.properties as Record<string, unknown>).map(([name, schema]) => ({
            name,
            in: "query",
            required: (authorizeParams.required as string[]).includes(name),
            schema,
          })),
        }),
    responses: {
      ...(decide ? {} : { 200: { description: "The consent page", content: html } }),
      303: redirect(decide ? "Back to the client with `code`, `state` and `iss`, or an RFC 6749 error" : "Back to the client with an RFC 6749 error"),
      400: { description: "The client or its redirect URI could not be proven: a page, never a redirect", content: html },
      401: { description: "Not signed in: a page that links to sign-in and back", content: html },
    },
  });
  return {
    paths: {
      "/.well-known/oauth-authorization-server": { get: metadata("Authorization server metadata (RFC 8414)") },
      "/.well-known/oauth-protected-resource": { get: metadata("Protected resource metadata of /mcp (RFC 9728)") },
      "/.well-known/oauth-protected-resource/mcp": { get: metadata("Protected resource metadata of /mcp (RFC 9728), at its path-suffixed address") },
      "/oauth/authorize": { get: authorize(false), post: authorize(true) },
      "/oauth/token": {
        post: {
          summary: "Exchange an authorization code for an access token (public clients: PKCE is the proof; never cached)",
          tags: ["oauth"],
          security: [],
          requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: toSchema(tokenRequestSchema) } } },
          responses: {
            200: {
              description: "The access token (audience: /mcp)",
              content: json({
                type: "object",
                properties: { access_token: { type: "string" }, token_type: { const: "Bearer" }, expires_in: { type: "integer" }, scope: { type: "string" } },
                required: ["access_token", "token_type", "expires_in", "scope"],
              }),
            },
            400: { description: "An RFC 6749 error: unsupported_grant_type, invalid_request, invalid_target or invalid_grant", content: json(oauthError) },
            429: { description: "Too many requests from this address or for this client (Retry-After)", content: json(oauthError) },
          },
        },
      },
      "/mcp": {
        post: {
          summary:
            "Model Context Protocol over Streamable HTTP (stateless, JSON answers): the inventory's tools for an assistant, within the grant's locations and scopes",
          tags: ["mcp"],
          security: [{ oauth: ["svc:read"] }],
          requestBody: { required: true, content: json({ type: "object", description: "A JSON-RPC 2.0 request (initialize, tools/list, tools/call, ...)" }) },
          responses: {
            200: { description: "The JSON-RPC answer", content: json({ type: "object" }) },
            401: { description: "No valid access token: WWW-Authenticate names the protected resource metadata", content: json(oauthError) },
            403: { description: "The token lacks the scope the call needs", content: json(oauthError) },
            429: { description: "Too many requests from this address (Retry-After)", content: json({ type: "object" }) },
          },
        },
        get: mcpRefused,
        delete: mcpRefused,
      },
    },
  };
}
