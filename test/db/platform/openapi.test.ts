/**
 * The OpenAPI document (server/http/openapi.ts): valid by a validator that resolves every pointer,
 * typed success statuses, and complete: every route the server answers is in it, read from the
 * Express router itself and from the auth library's own endpoint list, so a route added without a
 * description fails here. Run over plain http and over https (where OAuth and /mcp are served).
 */
import { METHODS } from "node:http";
import SwaggerParser from "@apidevtools/swagger-parser";
import type { Express } from "express";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { libraryRoutes } from "../../../server/http/openapi-auth.js";
import { AUTH_BASE_PATH } from "../../../server/auth/auth.js";
import { NotFoundError } from "../../../server/errors/classes.js";
import { startService, type TestService } from "../../support/app.js";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, unknown>; "x-handled-by"?: string }>> };

let svc: TestService;
let https: TestService;
beforeAll(async () => {
  svc = await startService();
  https = await startService({ SVC_PUBLIC_URL: "https://localhost:{port}" });
});
afterAll(async () => {
  await svc?.close();
  await https?.close();
});

const docOf = async (s: TestService): Promise<Doc> => (await s.client().get("/api/v1/openapi.json")).body as Doc;
const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));

interface RouterLayer {
  route?: { path: string; methods: Record<string, boolean> };
  handle?: { stack?: RouterLayer[] };
  slash?: boolean;
}

/** Every route of the app's router and the routers mounted in it, as `METHOD /openapi/{template}` (`ALL` for app.all). */
function expressRoutes(app: Express): string[] {
  const out: string[] = [];
  const walk = (stack: RouterLayer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const path = layer.route.path.replace(/:(\w+)/g, "{$1}");
        const methods = Object.keys(layer.route.methods).filter((m) => layer.route!.methods[m]);
        // app.all() sets every method Node knows.
        if (METHODS.every((m) => methods.includes(m.toLowerCase()))) out.push(`ALL ${path}`);
        else for (const m of methods) out.push(`${m.toUpperCase()} ${path}`);
      } else if (layer.handle?.stack) {
        // A router mounted at a path would prefix its routes: none is, and this walk would need to read it.
        expect(layer.slash, "a router mounted at a path (teach this test its prefix)").toBe(true);
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: RouterLayer[] } }).router.stack);
  return out;
}

const ROUTE_NOT_FOUND = new NotFoundError("route").message;

describe.each([
  ["http", () => svc],
  ["https", () => https],
])("over %s", (_name, service) => {
  test("the document is valid OpenAPI 3.1: swagger-parser validates it and resolves every pointer", async () => {
    const doc = await docOf(service());
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    // The fault this guards against: a pointer into the schema's own $defs, read from the root.
    const broken = structuredClone(doc);
    broken.paths["/api/v1/me"]!.get!.responses["200"] = { description: "x", content: { "application/json": { schema: { $ref: "#/$defs/Me" } } } };
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(/\$defs\/Me/);
  });

  test("every operation names its success status (2xx or a redirect), never only `default`", async () => {
    const doc = await docOf(service());
    const untyped = operations(doc)
      .filter(({ op }) => "default" in op.responses || !Object.keys(op.responses).some((s) => /^[23]\d\d$/.test(s) || s === "405"))
      .map(({ key }) => key);
    expect(untyped).toEqual([]);
  });

  test("every route of the Express router is in the document, and every described one is routed", async () => {
    const s = service();
    const doc = await docOf(s);
    const documented = new Set(operations(doc).map(({ key }) => key));
    const routed = expressRoutes(s.app);
    // The auth library's mount: its routes are checked one by one below.
    const mine = routed.filter((r) => r !== `ALL ${AUTH_BASE_PATH}/*splat`);
    expect(routed.length - mine.length, "the auth library's mount").toBe(1);
    const missing = mine.filter((r) => {
      const [method, path] = r.split(" ") as [string, string];
      return method === "ALL" ? ![...documented].some((d) => d.endsWith(` ${path}`)) : !documented.has(r);
    });
    expect(missing, "routes with no entry in the OpenAPI document").toEqual([]);
    const described = operations(doc)
      .filter(({ op }) => op["x-handled-by"] !== "auth-library")
      .map(({ key }) => key)
      .filter((key) => !routed.includes(key) && !routed.includes(`ALL ${key.split(" ")[1]}`));
    expect(described, "described but not routed").toEqual([]);
    if (s === https)
      for (const k of ["POST /mcp", "POST /oauth/token", "GET /oauth/authorize", "GET /.well-known/oauth-authorization-server"])
        expect(documented).toContain(k);
    else expect(documented).not.toContain("POST /mcp");
  });

  test("every auth library route is in the document exactly when the server answers it", async () => {
    const s = service();
    const doc = await docOf(s);
    const documented = new Set(
      operations(doc)
        .filter(({ op }) => op["x-handled-by"] === "auth-library")
        .map(({ key }) => key),
    );
    const answered: string[] = [];
    for (const r of libraryRoutes(s.services.auth)) {
      const path = r.path.replace(/:(\w+)/g, "x");
      const res = await s.client().request(r.method.toUpperCase(), path, r.method === "get" ? undefined : {});
      const notRouted = res.status === 404 && (res.body as { error?: { message?: string } } | null)?.error?.message === ROUTE_NOT_FOUND;
      if (!notRouted) answered.push(`${r.method.toUpperCase()} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
    }
    // Ours answer first at some of the library's paths (server/auth/*.ts routes); they are documented too.
    const ourRoutes = operations(doc)
      .filter(({ op }) => op["x-handled-by"] === undefined)
      .map(({ key }) => key);
    expect(answered.filter((k) => !documented.has(k) && !ourRoutes.includes(k))).toEqual([]);
    expect(
      [...documented].filter((k) => !answered.includes(k)),
      "documented but refused as no route",
    ).toEqual([]);
    for (const k of [
      "POST /api/v1/auth/sign-in/email",
      "GET /api/v1/auth/get-session",
      "POST /api/v1/auth/two-factor/verify-totp",
      "POST /api/v1/auth/passkey/authenticate/verify",
    ])
      expect(documented).toContain(k);
    // Switched off (server/auth/auth.ts DISABLED_PATHS): not answered, not documented.
    expect(documented).not.toContain("POST /api/v1/auth/sign-up/email");
    expect(documented).not.toContain("GET /api/v1/auth/list-sessions");
  });
});

test("the OpenAPI document is served without sign-in and lists the core paths with their success answers", async () => {
  const res = await svc.client().get("/api/v1/openapi.json");
  expect(res.status).toBe(200);
  expect(res.body.openapi).toBe("3.1.0");
  const paths = Object.keys(res.body.paths);
  for (const p of [
    "/api/v1/me",
    "/api/v1/locations",
    "/api/v1/locations/{id}",
    "/api/v1/locations/{id}/places",
    "/api/v1/places/{id}",
    "/api/v1/locations/{id}/things",
    "/api/v1/things/{id}",
    "/api/v1/things/{id}/move",
    "/api/v1/things/{id}/history",
    "/api/v1/history/{eventId}/undo",
    "/api/v1/locations/{id}/members",
    "/api/v1/locations/{id}/invites",
    "/api/v1/invites/accept",
    "/api/v1/auth/sign-up",
    "/health",
  ]) {
    expect(paths).toContain(p);
  }
  const history = res.body.paths["/api/v1/things/{id}/history"].get;
  expect(history.security).toContainEqual({ bearer: [] });
  expect(JSON.stringify(history.responses["200"])).toContain("#/components/schemas/HistoryEntry");
  expect(JSON.stringify(res.body.components.schemas.HistoryEntry)).toContain("undoable_until");
  const create = res.body.paths["/api/v1/locations/{id}/things"].post;
  expect(Object.keys(create.responses)).toContain("201");
  expect(create.responses["201"].headers).toHaveProperty("x-txid");
  expect(res.body.paths["/api/v1/moves/{id}/labels.pdf"].get.responses["200"].content).toHaveProperty("application/pdf");
});

test("health answers without sign-in", async () => {
  const res = await svc.client().get("/health");
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ status: "ok" });
});
