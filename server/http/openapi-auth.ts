/**
 * The OpenAPI description of the auth library's routes that the mount (server/auth/mount.ts)
 * passes on: every endpoint the library routes, less the ones switched off (DISABLED_PATHS), the
 * ones the mount blocks, and the ones our own routes answer first. Each is described from the
 * library's own endpoint: its body and query schemas (ours where the mount checks them), its
 * description and its success answer, less the `token` fields we strip from every answer.
 */
import { sensitiveSessionMiddleware, sessionMiddleware } from "better-auth/api";
import { z } from "zod";
import { errorResponses, openApiPath, type DescribedOperations, type HttpMethod, type OpenApiOperation, type OpenApiPaths } from "./openapi.js";
import type { JsonSchema } from "./openapi-schemas.js";
import { AUTH_BASE_PATH, DISABLED_PATHS, type Auth } from "../auth/auth.js";
import { isBlockedLibraryRoute, LIBRARY_INPUT } from "../auth/mount.js";
import { FACTOR_PROOF_PATHS } from "../auth/second-factor.js";

interface LibraryEndpoint {
  path?: string;
  options?: {
    method?: string | string[];
    body?: unknown;
    query?: unknown;
    use?: unknown[];
    metadata?: {
      SERVER_ONLY?: boolean;
      openapi?: { description?: string; responses?: Record<string, { description?: string; content?: Record<string, { schema?: unknown }> }> };
    };
  };
}

export interface LibraryRoute {
  method: HttpMethod;
  /** Express form, under the mount: /api/v1/auth/callback/:id */
  path: string;
  endpoint: LibraryEndpoint;
}

/** Every route the library itself routes (before our mount's refusals), by method and full path. */
export function libraryRoutes(auth: Auth): LibraryRoute[] {
  const out: LibraryRoute[] = [];
  for (const endpoint of Object.values(auth.api as Record<string, LibraryEndpoint>)) {
    const { path, options } = endpoint;
    if (!path || !options || options.metadata?.SERVER_ONLY) continue;
    for (const method of [options.method ?? []].flat()) out.push({ method: method.toLowerCase() as HttpMethod, path: AUTH_BASE_PATH + path, endpoint });
  }
  return out;
}

/** Summaries of the endpoints the library gives no description (ours among them). */
const SUMMARIES: Record<string, string> = {
  "/callback/:id": "Where a social provider sends the person back after sign-in (redirects into the app)",
  "/oauth2/callback/:providerId": "Where an OIDC provider sends the person back after sign-in (redirects into the app)",
  "/passkey/register/options": "Options to register a passkey on this device (signed in)",
  "/passkey/register/verify": "Store the passkey the device made from those options",
  "/passkey/authenticate/options": "Options to sign in with a passkey (a challenge)",
  "/passkey/authenticate/verify": "Sign in with a passkey: the device's answer to the challenge",
  "/passkey/list": "The signed-in person's passkeys",
  "/passkey/update": "Rename a passkey",
  "/passkey/delete": "Remove a passkey",
};

/** Library routes that answer with or without a session. */
const SESSION_OPTIONAL = new Set(["/get-session", "/sign-out"]);

/** Library answers that are a redirect, not JSON. */
const REDIRECTS = new Set(["/callback/:id", "/oauth2/callback/:providerId"]);

function jsonSchemaOf(schema: unknown): JsonSchema | null {
  if (!(schema instanceof z.ZodType)) return null;
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/**
 * The library's description of an answer, as it leaves us: no `token` anywhere (stripTokens in
 * server/auth/auth.ts), OpenAPI 3.0's `nullable` written as 3.1's null type.
 */
export function asServed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asServed);
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  const src = value as Record<string, unknown>;
  for (const [k, v] of Object.entries(src)) {
    if (k === "nullable") continue;
    if (k === "properties" && v && typeof v === "object") {
      const { token: _token, ...props } = v as Record<string, unknown>;
      out[k] = asServed(props);
    } else if (k === "required" && Array.isArray(v)) out[k] = v.filter((r) => r !== "token");
    else if (k === "type" && src.nullable === true && typeof v === "string") out[k] = [v, "null"];
    else out[k] = asServed(v);
  }
  // A $ref with siblings other than a description is read as an allOf; keep the pointer alone.
  if (typeof out.$ref === "string") return { $ref: out.$ref, ...(typeof out.description === "string" ? { description: out.description } : {}) };
  return out;
}

function operationOf(route: LibraryRoute): OpenApiOperation {
  const rel = route.path.slice(AUTH_BASE_PATH.length);
  const { options = {} } = route.endpoint;
  const ours = LIBRARY_INPUT[`${route.method.toUpperCase()} ${route.path}`];
  const body = route.method === "get" ? null : jsonSchemaOf(ours?.body ?? options.body);
  const query = jsonSchemaOf(ours?.query ?? options.query);
  const parameters = [
    ...(route.path.match(/:(\w+)/g) ?? []).map((p) => ({ name: p.slice(1), in: "path", required: true, schema: { type: "string" } })),
    ...Object.entries((query?.properties ?? {}) as Record<string, unknown>).map(([name, schema]) => ({
      name,
      in: "query",
      required: ((query?.required ?? []) as string[]).includes(name),
      schema,
    })),
  ];
  const described = options.metadata?.openapi;
  const success = REDIRECTS.has(rel)
    ? { 302: { description: "Into the app, or to its sign-in page with `error`", headers: { Location: { schema: { type: "string" } } } } }
    : rel === "/error"
      ? { 200: { description: "A page that names the sign-in error", content: { "text/html": { schema: { type: "string" } } } } }
      : { 200: asServed(described?.responses?.["200"] ?? { description: "OK", content: { "application/json": { schema: { type: "object" } } } }) };
  // A factor is proven in the session its sign-in made, pending until then (server/auth/second-factor.ts).
  const signedIn = (options.use ?? []).some((m) => m === sessionMiddleware || m === sensitiveSessionMiddleware) || FACTOR_PROOF_PATHS.has(rel);
  return {
    summary: described?.description ?? SUMMARIES[rel] ?? rel.slice(1).replace(/[/-]/g, " "),
    tags: ["auth"],
    operationId: `auth_${route.method}_${rel.replace(/[^a-zA-Z0-9]+/g, "_")}`,
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { requestBody: { required: true, content: { "application/json": { schema: body } } } } : {}),
    security: signedIn ? [{ session: [] }] : SESSION_OPTIONAL.has(rel) ? [{}, { session: [] }] : [],
    "x-handled-by": "auth-library",
    responses: { ...success, ...errorResponses },
  };
}

/** The person and session as the library answers them (users and auth_sessions, server/db/schema). */
const LIBRARY_SCHEMAS: Record<string, JsonSchema> = {
  User: {
    type: "object",
    properties: {
      id: { type: "string", format: "uuid" },
      name: { type: "string" },
      email: { type: ["string", "null"], description: "null for a managed account" },
      emailVerified: { type: "boolean" },
      image: { type: ["string", "null"] },
      username: { type: ["string", "null"] },
      displayUsername: { type: ["string", "null"] },
      twoFactorEnabled: { type: "boolean" },
      createdAt: { type: "string", format: "date-time" },
      updatedAt: { type: "string", format: "date-time" },
    },
    required: ["id", "name"],
  },
  Session: {
    type: "object",
    properties: {
      id: { type: "string", format: "uuid" },
      userId: { type: "string", format: "uuid" },
      expiresAt: { type: "string", format: "date-time" },
      createdAt: { type: "string", format: "date-time" },
      updatedAt: { type: "string", format: "date-time" },
      ipAddress: { type: ["string", "null"] },
      userAgent: { type: ["string", "null"] },
    },
    required: ["id", "userId", "expiresAt"],
  },
};

/**
 * The library's routes as the server answers them. `answeredFirst` holds `METHOD /path` of our own
 * routes, which are registered before the mount and so answer in its place.
 */
export function authLibraryOperations(auth: Auth, answeredFirst: Set<string>): DescribedOperations {
  const disabled = new Set(DISABLED_PATHS.map((p) => AUTH_BASE_PATH + p));
  const paths: OpenApiPaths = {};
  for (const route of libraryRoutes(auth)) {
    if (disabled.has(route.path) || isBlockedLibraryRoute(route.method.toUpperCase(), route.path)) continue;
    if (answeredFirst.has(`${route.method.toUpperCase()} ${route.path}`)) continue;
    (paths[openApiPath(route.path)] ??= {})[route.method] = operationOf(route);
  }
  return { paths, schemas: LIBRARY_SCHEMAS };
}
