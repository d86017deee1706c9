/**
 * A loopback HTTP server standing in for an AI provider. Each wire format (openai.ts, anthropic.ts
 * ...) says where its endpoint is, where the key travels, how images and the JSON schema appear in
 * a request, and how each scripted scenario looks as that provider's answer. The server records
 * what it received so tests can check the request, not just the answer.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the next call is to meet. Usage is fixed (USAGE) so costs can be checked by hand. */
export type Scenario =
  | { do: "ok"; object: unknown }
  /** `after`: what the model had written before it stopped (Anthropic keeps it in the answer). */
  | { do: "refuse"; after?: unknown }
  | { do: "truncate" }
  /** An answer that is not the object asked for: not JSON, or JSON of the wrong shape. */
  | { do: "text"; text: string }
  | { do: "status"; status: number; retryAfter?: string }
  /** Never answers (until the client gives up). */
  | { do: "hang" };

export const USAGE = { input: 1200, output: 80 } as const;

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

export interface WireFormat {
  name: string;
  /** The path prefix the real provider's base URL ends with (e.g. /v1), so the package's baseURL option points here. */
  basePath: string;
  /** True for the request path the package posts to. */
  endpoint(path: string): boolean;
  keyOf(headers: IncomingHttpHeaders): string | undefined;
  imagesOf(body: Record<string, unknown>): { mime: string; base64: string }[];
  /** The JSON schema the request asked the answer to follow, if it sent one. */
  schemaOf(body: Record<string, unknown>): unknown;
  reply(s: Exclude<Scenario, { do: "hang" } | { do: "status" }>, body: Record<string, unknown>): Reply;
  /** The provider's error body for a status; for 401/403 its "wrong key" body. */
  error(status: number): unknown;
  /** A cheap authenticated GET (the model list, or OpenRouter's key info) that a key check makes. */
  checkPath: string;
  /** How the provider says a key is wrong, when it is not 401 with error(401) (Gemini: 400 API_KEY_INVALID). */
  badKey?: () => Reply;
  /** The 200 answer of checkPath. */
  checked(): unknown;
}

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  /** The whole request as it arrived, to search for things that must not be there. */
  raw: string;
}

export interface Standin {
  baseUrl: string;
  received: Received[];
  /** The scenario for the following calls. */
  next(s: Scenario): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, r: Reply): void {
  res.writeHead(r.status, { "content-type": "application/json", ...r.headers });
  res.end(JSON.stringify(r.body));
}

export interface StandinOptions {
  /** The keys this provider knows: any other key is answered as the real provider answers a wrong one. Unset: any key. */
  keys?: readonly string[];
}

export async function startStandin(format: WireFormat, opts: StandinOptions = {}): Promise<Standin> {
  let scenario: Scenario = { do: "status", status: 500 };
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const path = new URL(req.url ?? "/", "http://standin").pathname;
      const isCheck = req.method === "GET" && path === format.checkPath;
      if (!isCheck && (req.method !== "POST" || !format.endpoint(path))) return send(res, { status: 404, body: format.error(404) });
      const key = format.keyOf(req.headers);
      if (opts.keys && (key === undefined || !opts.keys.includes(key))) {
        received.push({ path, headers: req.headers, body: {}, raw });
        return send(res, format.badKey?.() ?? { status: 401, body: format.error(401) });
      }
      if (isCheck) {
        received.push({ path, headers: req.headers, body: {}, raw });
        const s = scenario;
        if (s.do === "hang") return;
        // A scripted failure (an outage, a limit) meets the check too; anything else is the list.
        if (s.do === "status")
          return send(res, { status: s.status, headers: s.retryAfter ? { "retry-after": s.retryAfter } : {}, body: format.error(s.status) });
        return send(res, { status: 200, body: format.checked() });
      }
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return send(res, { status: 400, body: format.error(400) });
      }
      received.push({ path, headers: req.headers, body, raw });
      const s = scenario;
      if (s.do === "hang") return; // the client's deadline ends it; close() drops the socket
      if (s.do === "status") return send(res, { status: s.status, headers: s.retryAfter ? { "retry-after": s.retryAfter } : {}, body: format.error(s.status) });
      send(res, format.reply(s, body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${format.basePath}`,
    received,
    next: (s) => (scenario = s),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A data: URL split into its parts (OpenAI-style image_url). */
export function fromDataUrl(url: unknown): { mime: string; base64: string } | null {
  const m = typeof url === "string" ? /^data:([^;]+);base64,(.+)$/.exec(url) : null;
  return m ? { mime: m[1]!, base64: m[2]! } : null;
}

export const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
export const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
