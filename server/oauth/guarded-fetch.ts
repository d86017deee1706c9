/**
 * Fetching a client metadata document without becoming a proxy into our own network
 * (research/auth-notes.md 4.7; CIMD "security considerations"). The URL must be https with a path
 * and no credentials or fragment; the host name is resolved once and refused if any answer is a
 * special-use address; the connection goes to exactly the checked address (SNI and Host stay the
 * host name), follows no redirects, and stops at a size and a time cap.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type RequestOptions } from "node:http";
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
  constructor(readonly reason: string) {
    super(`Client metadata fetch refused: ${reason}`);
    this.name = "GuardRefusal";
  }
}

const systemResolve: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/** The checks on the URL itself, before any network traffic. */
export function checkClientIdUrl(raw: string, policy: AddressPolicy): URL {
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

export interface FetchedDocument {
  body: unknown;
  /** Seconds from Cache-Control max-age, if the server gave one. */
  maxAge: number | null;
}

export async function guardedFetchJson(raw: string, opts: GuardOptions): Promise<FetchedDocument> {
  const url = checkClientIdUrl(raw, opts);
  const target = await checkedAddress(url, opts);
  // Every connection attempt gets the checked address, whatever name it asks for.
  const pinned: LookupFunction = (_host, options, cb) => {
    if (options.all) (cb as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
    else cb(null, target.address, target.family);
  };
  const options: RequestOptions & { servername?: string; ca?: string | Buffer } = {
    method: "GET",
    lookup: pinned,
    headers: { accept: "application/json", "user-agent": "inventory-service/cimd" },
    timeout: FETCH_TIMEOUT_MS,
    ...(url.protocol === "https:" ? { servername: url.hostname.replace(/^\[|\]$/g, "") } : {}),
    ...(opts.ca ? { ca: opts.ca } : {}),
  };
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<FetchedDocument>((resolve, reject) => {
    const deadline = setTimeout(() => req.destroy(new GuardRefusal("timed out")), FETCH_TIMEOUT_MS);
    const fail = (err: unknown) => {
      clearTimeout(deadline);
      reject(err instanceof GuardRefusal ? err : new GuardRefusal("the document could not be fetched"));
    };
    const req = send(url, options, (res) => {
      if (res.statusCode !== 200) return (res.resume(), req.destroy(), fail(new GuardRefusal(`status ${res.statusCode ?? 0} (redirects are not followed)`)));
      if (!/^application\/json\b/i.test(res.headers["content-type"] ?? ""))
        return (res.resume(), req.destroy(), fail(new GuardRefusal("not application/json")));
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_DOCUMENT_BYTES) req.destroy(new GuardRefusal("the document is too large"));
        else chunks.push(chunk);
      });
      res.on("error", fail);
      res.on("end", () => {
        clearTimeout(deadline);
        try {
          const maxAge = /max-age=(\d+)/i.exec(res.headers["cache-control"] ?? "");
          resolve({ body: JSON.parse(Buffer.concat(chunks).toString("utf8")), maxAge: maxAge ? Number(maxAge[1]) : null });
        } catch {
          reject(new GuardRefusal("the document is not JSON"));
        }
      });
    });
    req.on("timeout", () => req.destroy(new GuardRefusal("timed out")));
    req.on("error", fail);
    req.end();
  });
}
