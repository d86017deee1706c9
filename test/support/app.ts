/**
 * A running service on a fresh database, for tests that go through HTTP like a client would.
 * `client()` returns a tiny cookie-keeping HTTP client that sends our Origin, as a browser would.
 */
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { Express } from "express";
import { pino, type DestinationStream } from "pino";
import { createApp } from "../../server/app.js";
import { createServices, type Services } from "../../server/services.js";
import { withSignInProviders } from "../../server/auth/providers.js";
import { loadConfig, type Config } from "../../server/config.js";
import { answerClientError } from "../../server/http/client-error.js";
import type { Database } from "../../server/db/client.js";
import { resetBootstrapCache } from "../../server/modules/locations/bootstrap.js";
import { freshDatabase } from "./db.js";

export interface TestService {
  url: string;
  /** The Express application, for tests that read its routes. */
  app: Express;
  services: Services;
  database: Database;
  config: Config;
  /** A new client; each one connects from its own loopback address unless `address` is given. */
  client(opts?: ClientOptions): HttpClient;
  /** Signs up (sign-up is open in tests unless configured otherwise) and signs in. */
  signedIn(name?: string): Promise<HttpClient & { email: string; userId: string }>;
  close(): Promise<void>;
}

export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface ClientOptions {
  /** Local address to connect from (anything in 127.0.0.0/8). */
  address?: string;
}

export interface HttpClient {
  cookies: Map<string, string>;
  /** The loopback address this client connects from (its client address without proxies). */
  address: string;
  request<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse<T>>;
  get<T = any>(path: string): Promise<HttpResponse<T>>;
  post<T = any>(path: string, body?: unknown): Promise<HttpResponse<T>>;
  patch<T = any>(path: string, body?: unknown): Promise<HttpResponse<T>>;
  delete<T = any>(path: string, body?: unknown): Promise<HttpResponse<T>>;
}

let counter = 0;
let loopback = 0;

/** 127.0.1.1, 127.0.1.2, ...: a distinct source address per client. */
function nextLoopbackAddress(): string {
  const n = 256 + ++loopback;
  return `127.0.${Math.floor(n / 254) % 256}.${(n % 254) + 1}`;
}

export interface ServiceOptions {
  /** Where the service's log lines go (at level info), e.g. a buffer a test greps. Default: none, or TEST_LOG_LEVEL to stdout. */
  log?: DestinationStream;
}

export async function startService(env: Record<string, string> = {}, database?: Database, opts: ServiceOptions = {}): Promise<TestService> {
  resetBootstrapCache();
  const db = database ?? (await freshDatabase());
  // Bind first, so the public URL (and so the expected Origin and the auth library's base URL)
  // is the real address before the app is built.
  const server: Server = createServer();
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  const logger = opts.log ? pino({ level: "info" }, opts.log) : pino({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
  const configured = loadConfig(
    {
      SVC_SIGNUP_OPEN: "1",
      SVC_LOG_LEVEL: "silent",
      PORT: String(port),
      SVC_DATA_DIR: mkdtempSync(path.join(tmpdir(), "svc-data-")),
      ...env,
      // "{port}" in a given public URL is the port just bound (passkeys need http://localhost:{port}:
      // a relying party id is a host name, never an IP address).
      SVC_PUBLIC_URL: env.SVC_PUBLIC_URL?.replace("{port}", String(port)) ?? url,
    },
    { secret: "test-secret-test-secret-test-secret-0123" },
  );
  // OIDC and social providers are offered only when their discovery works now, as at start-up.
  const config = await withSignInProviders(configured, logger);
  const services = createServices(config, db, logger);
  const { app } = createApp(services);
  server.on("request", app);

  const client = (opts: ClientOptions = {}): HttpClient => {
    const cookies = new Map<string, string>();
    // Each client is a device at its own loopback address (all of 127.0.0.0/8 reaches the server),
    // so per-IP limits see what they would see with real people.
    const localAddress = opts.address ?? nextLoopbackAddress();
    const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const h: Record<string, string> = { origin: config.publicUrl.origin, ...headers };
      if (cookies.size) h.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      const payload = body !== undefined ? JSON.stringify(body) : undefined;
      if (payload !== undefined) {
        h["content-type"] = "application/json";
        h["content-length"] = String(Buffer.byteLength(payload));
      }
      const res = await new Promise<{ status: number; headers: Headers; text: string }>((resolve, reject) => {
        const req = httpRequest(url + path, { method, headers: h, localAddress }, (r) => {
          const chunks: Buffer[] = [];
          r.on("data", (c: Buffer) => chunks.push(c));
          r.on("end", () => {
            const out = new Headers();
            for (let i = 0; i < r.rawHeaders.length; i += 2) out.append(r.rawHeaders[i]!, r.rawHeaders[i + 1]!);
            resolve({ status: r.statusCode ?? 0, headers: out, text: Buffer.concat(chunks).toString("utf8") });
          });
        });
        req.on("error", reject);
        req.end(payload);
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(";");
        const i = pair!.indexOf("=");
        const name = pair!.slice(0, i);
        const value = pair!.slice(i + 1);
        if (value === "" || /max-age=0/i.test(c)) cookies.delete(name);
        else cookies.set(name, value);
      }
      let parsed: unknown = res.text;
      try {
        parsed = res.text ? JSON.parse(res.text) : null;
      } catch {
        /* not JSON */
      }
      return { status: res.status, headers: res.headers, body: parsed as any };
    };
    return {
      cookies,
      address: localAddress,
      request,
      get: (p) => request("GET", p),
      post: (p, b) => request("POST", p, b ?? {}),
      patch: (p, b) => request("PATCH", p, b ?? {}),
      delete: (p, b) => request("DELETE", p, b),
    };
  };

  const signedIn = async (name = "Test User") => {
    const email = `user${++counter}-${Date.now()}@example.test`;
    const c = client();
    const up = await c.post("/api/v1/auth/sign-up", { email, password: "correct horse battery", name });
    if (up.status !== 200) throw new Error(`sign-up failed: ${up.status} ${JSON.stringify(up.body)}`);
    const inRes = await c.post("/api/v1/auth/sign-in/email", { email, password: "correct horse battery" });
    if (inRes.status !== 200) throw new Error(`sign-in failed: ${inRes.status} ${JSON.stringify(inRes.body)}`);
    const me = await c.get("/api/v1/me");
    return Object.assign(c, { email, userId: me.body?.user?.id as string });
  };

  return {
    url,
    app,
    services,
    database: db,
    config,
    client,
    signedIn,
    async close() {
      await services.notifier.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
