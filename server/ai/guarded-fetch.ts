/**
 * A fetch for AI calls to a base URL a person entered (AI settings): the same guard as client
 * metadata fetches (server/oauth/guarded-fetch.ts) — https only, no credentials in the URL, the
 * host resolved once and refused if any answer is an internal address, the connection pinned to
 * the checked address, no redirects followed — but a POST with the provider's headers, and an
 * answer handed back as a web Response for the AI SDK. The instance's own SVC_AI_BASE_URL is
 * trusted and does not come through here.
 */
import type { IncomingMessage, RequestOptions } from "node:http";
import { Readable, Transform } from "node:stream";
import { checkedAddress, GuardRefusal, pinnedTo, requestFor, type GuardOptions } from "../oauth/guarded-fetch.js";
import type { FetchFunction } from "./providers.js";

/** Far above any structured answer; stops a hostile server from streaming forever. */
export const MAX_AI_RESPONSE_BYTES = 8 * 1024 * 1024;

const NULL_BODY = new Set([101, 204, 205, 304]);

/** The checks on a base URL before anything is sent; also for validating it when a person saves it. */
export function checkAiBaseUrl(raw: string, policy: GuardOptions): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new GuardRefusal("not a URL");
  }
  if (url.protocol !== "https:" && !(policy.allowLoopback && url.protocol === "http:")) throw new GuardRefusal("https only");
  if (url.username || url.password) throw new GuardRefusal("credentials in the URL");
  return url;
}

function toResponse(res: IncomingMessage): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const status = res.statusCode ?? 502;
  if (NULL_BODY.has(status)) {
    res.resume();
    return new Response(null, { status, headers });
  }
  let size = 0;
  const capped = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      cb(size > MAX_AI_RESPONSE_BYTES ? new GuardRefusal("the answer is too large") : null, chunk);
    },
  });
  res.on("error", (e) => capped.destroy(e));
  return new Response(Readable.toWeb(res.pipe(capped)) as ReadableStream<Uint8Array>, { status, statusText: res.statusMessage ?? "", headers });
}

export function guardedAiFetch(opts: GuardOptions): FetchFunction {
  const guarded = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    // Checked before new Request(), which would throw its own error on credentials in the URL.
    const url = checkAiBaseUrl(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, opts);
    const request = input instanceof Request ? new Request(input, init) : new Request(url, init);
    const target = await checkedAddress(url, opts);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => (headers[key] = value));
    const options: RequestOptions = { method: request.method, headers, signal: request.signal, ...pinnedTo(url, target, opts) };
    const send = requestFor(url);
    return new Promise<Response>((resolve, reject) => {
      const req = send(url, options, (res) => resolve(toResponse(res)));
      req.on("error", reject);
      req.end(body);
    });
  };
  return guarded;
}
