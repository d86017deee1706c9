/**
 * Serves the built web app (client/, built by Vite into SVC_CLIENT_DIR) at `/`. Hashed assets are
 * cached for a year; index.html, the service worker and the manifest are revalidated on every load
 * so a new deployment reaches devices. Client routes (/l/..., /sign-in, /magic#token=...) fall back
 * to index.html; the API, MCP, health and discovery paths never do, so an unknown API path stays a
 * JSON 404. Mounted before authentication: the app shell needs no session (a session pending its
 * second factor must still load the page that asks for it).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";

/** Paths that belong to the server, never to the app's router. */
export const SERVER_PATHS = /^\/(api|mcp|oauth|health|\.well-known)(\/|$)/;

/** Files a browser must revalidate: they name the hashed assets of the current build. */
const REVALIDATE = new Set(["/index.html", "/sw.js", "/manifest.webmanifest", "/registerSW.js"]);

export function clientApp(dir: string): RequestHandler {
  const index = path.join(dir, "index.html");
  if (!existsSync(index)) {
    // No build (a test run, or `npm run dev` before `npm run build`): the API works on its own.
    return (_req, _res, next) => next();
  }
  const assets = express.static(dir, {
    index: false,
    setHeaders(res, file) {
      const rel = `/${path.relative(dir, file).split(path.sep).join("/")}`;
      if (REVALIDATE.has(rel)) res.setHeader("cache-control", "no-cache");
      else if (rel.startsWith("/assets/")) res.setHeader("cache-control", "public, max-age=31536000, immutable");
      else res.setHeader("cache-control", "public, max-age=3600");
    },
  });
  return (req, res, next) => {
    if (SERVER_PATHS.test(req.path) || (req.method !== "GET" && req.method !== "HEAD")) return next();
    assets(req, res, () => {
      // Not a file: a client route gets the app shell, anything that is not a page stays a 404.
      if (path.extname(req.path) !== "" || !req.accepts("html")) return next();
      res.setHeader("cache-control", "no-cache");
      res.sendFile(index);
    });
  };
}
