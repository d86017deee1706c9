/**
 * Requests with exactly the bytes and headers given, as the hostile suites send them.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import type { TestService } from "../app.js";

export const PASSWORD = "correct horse battery";
export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: unknown;
}

export interface RawRequest {
  method: string;
  /** Sent as is: percent-encoding (good or bad) is the caller's. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Cookies to send (a signed-in client's); none for an anonymous request. */
  cookies?: Map<string, string>;
  /** Loopback address to connect from (a client's own, so per-IP limits see distinct people). */
  address?: string;
}

/** One request with exactly these bytes; our Origin is sent as a browser on our page would. Fails after `timeoutMs` without an answer. */
export function sendRaw(svc: TestService, r: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  const h: Record<string, string> = { origin: svc.config.publicUrl.origin, ...r.headers };
  if (r.cookies?.size) h.cookie = [...r.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  if (r.body !== undefined) h["content-length"] = String(Buffer.byteLength(r.body));
  return new Promise((resolve, reject) => {
    const req = httpRequest(svc.url + r.path, { method: r.method, headers: h, ...(r.address ? { localAddress: r.address } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString("utf8");
        let body: unknown = text;
        try {
          body = text ? JSON.parse(text) : null;
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
      res.on("error", reject);
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    req.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end(r.body);
  });
}
