/**
 * GET /api/v1/openapi.json, generated from the route definitions and their shared zod schemas
 * (zod's own JSON Schema output, which OpenAPI 3.1 accepts as is).
 */
import { z } from "zod";
import { errorBodySchema } from "../../shared/errors.js";
import { defineRoute, TXID_HEADER, type RouteDef } from "./route.js";

const toSchema = (s: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(s, { io, unrepresentable: "any", target: "draft-2020-12" }) as Record<string, unknown>;

const txidHeader = {
  description: "The transaction the write committed in; it arrives on the shape streams that show the change.",
  required: true,
  schema: { type: "string" },
};

export function buildOpenApi(routes: RouteDef[]) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, "{$1}");
    const parameters: unknown[] = [];
    for (const name of r.path.match(/:(\w+)/g) ?? []) parameters.push({ name: name.slice(1), in: "path", required: true, schema: { type: "string" } });
    if (r.query instanceof z.ZodObject) {
      for (const [name, schema] of Object.entries(r.query.shape as Record<string, z.ZodType>)) {
        parameters.push({ name, in: "query", required: !schema.safeParse(undefined).success, schema: toSchema(schema, "input") });
      }
    }
    const auth = r.auth ?? "required";
    (paths[path] ??= {})[r.method] = {
      summary: r.summary,
      tags: [r.tag],
      operationId: `${r.method}_${r.path.replace(/[^a-zA-Z0-9]+/g, "_")}`,
      ...(parameters.length ? { parameters } : {}),
      ...(r.body ? { requestBody: { required: !r.bodyOptional, content: { "application/json": { schema: toSchema(r.body, "input") } } } } : {}),
      security: auth === "none" ? [] : r.bearer ? [{ session: [] }, { bearer: [] }] : [{ session: [] }],
      "x-auth-mode": auth,
      responses: {
        default: {
          description: "Success",
          ...(r.answersTxid ? { headers: { [TXID_HEADER]: txidHeader } } : {}),
          content: { "application/json": { schema: toSchema(r.response, "output") } },
        },
        "4XX": { description: "Error", content: { "application/json": { schema: toSchema(errorBodySchema, "output") } } },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Inventory service", version: "1" },
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "svc.session_token" },
        bearer: { type: "http", scheme: "bearer" },
      },
    },
    paths,
  };
}

export function openApiRoute(list: () => RouteDef[]) {
  let cached: unknown;
  return defineRoute({
    method: "get",
    path: "/api/v1/openapi.json",
    summary: "This document",
    tag: "meta",
    auth: "none",
    response: z.record(z.string(), z.unknown()),
    async handler() {
      cached ??= buildOpenApi(list());
      return cached as Record<string, unknown>;
    },
  });
}
