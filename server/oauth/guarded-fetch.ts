/**
 * Outgoing requests to URLs someone else gave us (OAuth client metadata documents, web push
 * endpoints) without becoming a proxy into our own network (research/auth-notes.md 4.7; CIMD
 * "security considerations"). The URL must be https with no credentials or fragment; the host name
 * is resolved once and refused if any answer is a special-use address; the connection goes to
 * exactly the checked address (SNI and Host stay the host name), follows no redirects, and stops at
 * a size and a time cap. This is the one guard: every outgoing fetch of a foreign URL goes through it.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingHttpHeaders, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isPublicAddress, type AddressPolicy } from "./address-policy.js";

export const FETCH_TIMEOUT_MS = 5_000;
export const MAX_DOCUMENT_BYTES = 64 * 1024;

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export interface GuardOptions extends AddressPolicy {
  /** DNS in production; tests hand in answers for names they do not own. */
  resolve?: Resolver;
  /** Extra trusted CAs (tests serving https on loopback). */
  ca?: string | Buffer;
}

export class GuardRefusal extends Error {
  constructor(
    readonly reason: string,
    what = "Client metadata fetch",
  ) {
    super(`${what} refused: ${reason}`);
    this.name = "GuardRefusal";
  }
}

const systemResolve: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** The checks on any outgoing URL itself, before any network traffic. */
export function checkOutgoingUrl(raw: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GuardRefusal("not a URL");
  }
  const loopbackHttp = policy.allowLoopback && url.protocol === "http:";
  if (url.protocol !== "https:" && !loopbackHttp) throw new GuardRefusal("https only");
  if (url.username || url.password) throw new GuardRefusal("credentials in the URL");
  if (url.hash || raw.includes("#")) throw new GuardRefusal("fragment in the URL");
  return url;
}

/** A client_id URL: an outgoing URL with a path, written exactly as it names itself. */
export function checkClientIdUrl(raw: string, policy: AddressPolicy): URL {
  const url = checkOutgoingUrl(raw, policy);
  if (url.pathname === "/" || url.pathname === "") throw new GuardRefusal("a path is required");
  // new URL() resolves dot-segments, default ports and letter case; a client_id that needed any of
  // that is not exactly the URL the document must name as its client_id.
  if (url.href !== raw) throw new GuardRefusal("the URL is not in normal form");
  return url;
}

/** Resolves once; every answer must be allowed, and the first is the one connected to. Also used by server/ai/guarded-fetch.ts. */
export async function checkedAddress(url: URL, opts: GuardOptions): Promise<{ address: string; family: number }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const answers = isIP(host) ? [{ address: host, family: isIP(host) }] : await (opts.resolve ?? systemResolve)(host).catch(() => []);
  if (!answers.length) throw new GuardRefusal("the host name does not resolve");
  for (const a of answers) if (!isPublicAddress(a.address, opts)) throw new GuardRefusal("the host resolves to an internal address");
  if (loopbackOnlyHttp(url, answers, opts)) throw new GuardRefusal("http is allowed for loopback only");
  return answers[0]!;
}

function loopbackOnlyHttp(url: URL, answers: { address: string }[], opts: GuardOptions): boolean {
  if (url.protocol === "https:") return false;
  // http got past checkClientIdUrl only under the loopback test setting; then every answer must be loopback.
  return !answers.every((a) => isPublicAddress(a.address, opts) && !isPublicAddress(a.address, { allowLoopback: false }));
}

export interface OutgoingRequest {
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: Buffer;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Connection options that reach only `target`, the address checkedAddress allowed: every lookup a
 * connection makes answers it, whatever name it asks for (no second resolution to rebind), while
 * TLS still verifies the URL's own host name. Used by guardedRequest and server/ai/guarded-fetch.ts.
 */
export function pinnedTo(
  url: URL,
  target: { address: string; family: number },
  opts: GuardOptions,
): RequestOptions & { servername?: string; ca?: string | Buffer } {
  const lookup: LookupFunction = (_host, options, cb) => {
    if (options.all) (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };
  return {
    lookup,
    ...(url.protocol === "https:" ? { servername: url.hostname.replace(/^\[|\]$/g, "") } : {}),
    ...(opts.ca ? { ca: opts.ca } : {}),
  };
}

/** node:https for https URLs, node:http for the loopback http the test settings allow. */
export const requestFor = (url: URL) => (url.protocol === "https:" ? httpsRequest : httpRequest);

/**
 * Sends one request to a URL that passed checkOutgoingUrl (or a stricter check), connecting only to
 * the address the guard allowed. Any status is answered (redirects are not followed); a body past
 * MAX_DOCUMENT_BYTES, a timeout or a network failure is a GuardRefusal.
 */
export async function guardedRequest(url: URL, out: OutgoingRequest, opts: GuardOptions): Promise<GuardedResponse> {
  const target = await checkedAddress(url, opts);
  const options: RequestOptions = {
    method: out.method,
    headers: { ...out.headers, ...(out.body ? { "content-length": String(out.body.length) } : {}) },
    timeout: FETCH_TIMEOUT_MS,
    ...pinnedTo(url, target, opts),
  };
  const send = requestFor(url);
  return new Promise<GuardedResponse>((resolve, reject) => {
    const deadline = setTimeout(() => req.destroy(new GuardRefusal("timed out")), FETCH_TIMEOUT_MS);
    const fail = (err: unknown) => {
      clearTimeout(deadline);
      reject(err instanceof GuardRefusal ? err : new GuardRefusal("the request failed"));
    };
    const req = send(url, options, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) req.destroy(new GuardRefusal("the answer is too large"));
        else chunks.push(chunk);
      });
      res.on("error", fail);
      res.on("end", () => {
        clearTimeout(deadline);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
    });
    req.on("timeout", () => req.destroy(new GuardRefusal("timed out")));
    req.on("error", fail);
    req.end(out.body);
  });
}

export interface FetchedDocument {
  body: unknown;
  /** Seconds from Cache-Control max-age, if the server gave one. */
  maxAge: number | null;
}

export async function guardedFetchJson(raw: string, opts: GuardOptions): Promise<FetchedDocument> {
  const url = checkClientIdUrl(raw, opts);
  const res = await guardedRequest(url, { method: "GET", headers: { accept: "application/json", "user-agent": "inventory-service/cimd" } }, opts).catch(
    (err: unknown) => {
      if (err instanceof GuardRefusal && err.reason === "the answer is too large") throw new GuardRefusal("the document is too large");
      if (err instanceof GuardRefusal && err.reason === "the request failed") throw new GuardRefusal("the document could not be fetched");
      throw err;
    },
  );
  if (res.status !== 200) throw new GuardRefusal(`status ${res.status} (redirects are not followed)`);
  if (!/^application\/json\b/i.test(res.headers["content-type"] ?? "")) throw new GuardRefusal("not application/json");
  const maxAge = /max-age=(\d+)/i.exec(res.headers["cache-control"] ?? "");
  try {
    return { body: JSON.parse(res.body.toString("utf8")), maxAge: maxAge ? Number(maxAge[1]) : null };
  } catch {
    throw new GuardRefusal("the document is not JSON");
  }
}
