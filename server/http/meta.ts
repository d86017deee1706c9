/**
 * What the server answers about itself, outside the API's route list: GET /health and the API
 * reference page at /api/v1/reference (Swagger UI, served from node_modules: no CDN, so it works
 * on a LAN without internet, under the same Content-Security-Policy as the app: our own script
 * file starts it, no inline script). Both answer without sign-in.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { Router } from "express";
import type { DescribedOperations } from "./openapi.js";

export const REFERENCE_PATH = "/api/v1/reference";
const OPENAPI_URL = "/api/v1/openapi.json";

/** The files of swagger-ui-dist the page loads, and their media types. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const distDir = () => path.dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Inventory service API reference</title>
    <link rel="stylesheet" href="${REFERENCE_PATH}/swagger-ui.css" />
    <link rel="icon" type="image/png" href="${REFERENCE_PATH}/favicon-32x32.png" />
  </head>
  <body>
    <main id="swagger-ui"></main>
    <script src="${REFERENCE_PATH}/swagger-ui-bundle.js"></script>
    <script src="${REFERENCE_PATH}/start.js"></script>
  </body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an online validator.
const start = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_URL)},
  dom_id: "#swagger-ui",
  deepLinking: true,
  docExpansion: "none",
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
`;

export function metaRouter(): Router {
  const router = Router();
  const dir = distDir();
  router.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get(REFERENCE_PATH, (_req, res) => {
    res.setHeader("cache-control", "no-cache");
    res.type("html").send(page);
  });
  router.get(`${REFERENCE_PATH}/start.js`, (_req, res) => {
    res.setHeader("cache-control", "no-cache");
    res.type("text/javascript").send(start);
  });
  router.get(`${REFERENCE_PATH}/:file`, (req, res, next) => {
    const type = ASSETS[req.params.file];
    if (!type) return next();
    res.setHeader("content-type", type);
    // Named by the pinned version only, so revalidated rather than kept for a year.
    res.setHeader("cache-control", "public, max-age=3600");
    res.sendFile(path.join(dir, req.params.file), (err) => err && next(err));
  });
  return router;
}

const page200 = (description: string, type: string) => ({ 200: { description, content: { [type]: { schema: { type: "string" } } } } });

export function metaOperations(): DescribedOperations {
  const meta = (summary: string, responses: Record<string, unknown>) => ({ get: { summary, tags: ["meta"], security: [], responses } });
  return {
    paths: {
      "/health": meta("The process is up (for load balancers and container health checks)", {
        200: {
          description: "OK",
          content: { "application/json": { schema: { type: "object", properties: { status: { const: "ok" } }, required: ["status"] } } },
        },
      }),
      [REFERENCE_PATH]: meta("This API reference, as a page (Swagger UI)", page200("The page", "text/html")),
      [`${REFERENCE_PATH}/start.js`]: meta("The reference page's start script", page200("The script", "text/javascript")),
      [`${REFERENCE_PATH}/{file}`]: {
        get: {
          summary: "The reference page's files (Swagger UI's script, style sheet and icon)",
          tags: ["meta"],
          security: [],
          parameters: [{ name: "file", in: "path", required: true, schema: { enum: Object.keys(ASSETS) } }],
          responses: { 200: { description: "The file", content: { "*/*": { schema: { type: "string" } } } }, 404: { description: "Not one of them" } },
        },
      },
    },
  };
}
