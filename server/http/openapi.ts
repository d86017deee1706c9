/**
 * GET /api/v1/openapi.json (OpenAPI 3.1), generated from the route definitions and their shared
 * zod schemas, so the two cannot drift apart; routes the server answers outside that list (the
 * auth library's, OAuth's, /mcp, /health, the reference page) are described beside their code and
 * passed in as `described`. test/db/platform/openapi.test.ts checks that every route the server answers is
 * here and that the document is valid.
 */
import { z } from "zod";
import { errorBodySchema } from "../../shared/errors.js";
import { carriesVersion, etagHeader, ifMatchParameter } from "./etag.js";
import { SchemaComponents, type JsonSchema } from "./openapi-schemas.js";
import { defineRoute, TXID_HEADER, type RouteDef } from "./route.js";

export type OpenApiOperation = Record<string, unknown>;
export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";
/** Operations by OpenAPI path template (`/api/v1/things/{id}`) and lower-case method. */
export type OpenApiPaths = Record<string, Partial<Record<HttpMethod, OpenApiOperation>>>;

/** Operations described by hand, with the components (named schemas) they point at. */
export interface DescribedOperations {
  paths: OpenApiPaths;
  schemas?: Record<string, JsonSchema>;
}

/** `/api/v1/things/:id` -> `/api/v1/things/{id}`. */
export const openApiPath = (expressPath: string): string => expressPath.replace(/:(\w+)/g, "{$1}");

const txidHeader = {
  description: "The transaction the write committed in; it arrives on the shape streams that show the change.",
  required: true,
  schema: { type: "string" },
};

const binary = { type: "string", contentMediaType: "application/octet-stream" };

/** The one error body (shared/errors.ts), for every 4xx and 5xx answer. */
export const errorResponses = {
  "4XX": {
    description: "Refused: the error body says why (`error.code`) and how to fix it (`error.message`).",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  },
  "5XX": {
    description: "Failed on our side (`internal`) or the database is unreachable (`unavailable`, with Retry-After).",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  },
};

const STATUS_TEXT: Record<number, string> = { 200: "OK", 201: "Created", 202: "Accepted", 204: "No content" };

function successResponse(r: RouteDef, components: SchemaComponents): Record<string, unknown> {
  const status = r.status ?? 200;
  const named = { ...(r.answersTxid ? { [TXID_HEADER]: txidHeader } : {}), ...(carriesVersion(r.response) ? { ETag: etagHeader } : {}) };
  const headers = Object.keys(named).length ? { headers: named } : {};
  const description = STATUS_TEXT[status] ?? "Success";
  if (status === 204) return { [status]: { description, ...headers } };
  const content = r.produces ? { [r.produces]: { schema: binary } } : { "application/json": { schema: components.of(r.response, "output") } };
  return { [status]: { description, ...headers, content } };
}

function operationOf(r: RouteDef, components: SchemaComponents): OpenApiOperation {
  const parameters: unknown[] = [];
  for (const name of r.path.match(/:(\w+)/g) ?? []) parameters.push({ name: name.slice(1), in: "path", required: true, schema: { type: "string" } });
  if (r.query instanceof z.ZodObject) {
    for (const [name, schema] of Object.entries<z.ZodType>(r.query.shape)) {
      parameters.push({ name, in: "query", required: !schema.safeParse(undefined).success, schema: components.of(schema, "input") });
    }
  }
  if (r.method !== "get" && carriesVersion(r.body)) parameters.push(ifMatchParameter);
  const requestBody = r.body
    ? { required: !r.bodyOptional, content: { "application/json": { schema: components.of(r.body, "input") } } }
    : r.consumes
      ? { required: true, content: { [r.consumes]: { schema: binary } } }
      : null;
  const auth = r.auth ?? "required";
  return {
    summary: r.summary,
    tags: [r.tag],
    operationId: `${r.method}_${r.path.replace(/[^a-zA-Z0-9]+/g, "_")}`,
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    security: auth === "none" ? [] : r.bearer ? [{ session: [] }, { bearer: [] }] : [{ session: [] }],
    "x-auth-mode": auth,
    responses: { ...successResponse(r, components), ...errorResponses },
  };
}

export function buildOpenApi(routes: RouteDef[], described: DescribedOperations[] = []) {
  const components = new SchemaComponents();
  components.of(errorBodySchema, "output");
  const paths: OpenApiPaths = {};
  for (const r of routes) (paths[openApiPath(r.path)] ??= {})[r.method] = operationOf(r, components);
  for (const d of described) {
    for (const [path, ops] of Object.entries(d.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const at = (paths[path] ??= {});
        if (at[method as HttpMethod]) throw new Error(`${method.toUpperCase()} ${path} is described twice`);
        at[method as HttpMethod] = op;
      }
    }
    for (const [name, schema] of Object.entries(d.schemas ?? {})) components.schemas[name] ??= schema;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Inventory service",
      version: "1",
      description:
        "The REST API of the inventory service. Sign in with the session cookie (the web app's) or, on the routes that say so, a personal access token as `Authorization: Bearer`. Every refusal answers one error body. /mcp and the OAuth endpoints are served (and listed) only when SVC_PUBLIC_URL is https.",
      license: { name: "MIT", identifier: "MIT" },
    },
    components: {
      schemas: components.schemas,
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: "svc.session_token",
          description: "The session cookie set by a sign-in (`__Secure-svc.session_token` over https).",
        },
        bearer: { type: "http", scheme: "bearer", description: "A personal access token (Settings, Access tokens), on the routes that list it." },
        oauth: {
          type: "oauth2",
          description: "An OAuth access token for /mcp (authorization code with PKCE; public clients).",
          flows: {
            authorizationCode: { authorizationUrl: "/oauth/authorize", tokenUrl: "/oauth/token", scopes: { "svc:read": "Read", "svc:write": "Write" } },
          },
        },
      },
    },
    paths,
  };
}

export function openApiRoute(list: () => RouteDef[], described: () => DescribedOperations[]) {
  let cached: unknown;
  return defineRoute({
    method: "get",
    path: "/api/v1/openapi.json",
    summary: "This document",
    tag: "meta",
    auth: "none",
    response: z.record(z.string(), z.unknown()),
    async handler() {
      cached ??= buildOpenApi(list(), described());
      return cached as Record<string, unknown>;
    },
  });
}
