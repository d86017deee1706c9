/**
 * Client metadata documents (draft-ietf-oauth-client-id-metadata-document): the client_id is an
 * https URL whose JSON names the client and its exact redirect URIs. Fetched through the guard,
 * checked, and cached between one minute and one day (default five minutes).
 */
import { RateLimiterMemory } from "rate-limiter-flexible";
import { z } from "zod";
import { GuardRefusal, guardedFetchJson, type GuardOptions } from "./guarded-fetch.js";

const MIN_TTL_S = 60;
const MAX_TTL_S = 86_400;
const DEFAULT_TTL_S = 300;
const MAX_ENTRIES = 1000;
/**
 * Anyone can make us fetch a document by opening an authorize URL, signed in or not; at most this
 * many fetches a minute go to one host (per process), so we cannot be used to hammer a site.
 */
export const FETCHES_PER_HOST = { points: 10, duration: 60 };

const documentSchema = z.looseObject({
  client_id: z.string(),
  client_name: z.string().trim().min(1).max(200),
  redirect_uris: z.array(z.string().url()).min(1).max(20),
  token_endpoint_auth_method: z.literal("none").optional(),
});

export interface ClientMetadata {
  clientId: string;
  clientName: string;
  redirectUris: string[];
}

export class ClientMetadataError extends Error {}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** https redirects, or http to a loopback host (native apps); nothing else. */
export function isAcceptableRedirect(uri: string): boolean {
  const url = new URL(uri);
  if (url.hash) return false;
  return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
}

export class ClientMetadataStore {
  private readonly cache = new Map<string, { value: ClientMetadata; until: number }>();
  private readonly perHost = new RateLimiterMemory({ keyPrefix: "cimd-host", ...FETCHES_PER_HOST });

  constructor(private readonly guard: GuardOptions) {}

  async get(clientId: string, now = Date.now()): Promise<ClientMetadata> {
    const hit = this.cache.get(clientId);
    if (hit && hit.until > now) return hit.value;
    let host: string;
    try {
      host = new URL(clientId).host.toLowerCase();
    } catch {
      throw new ClientMetadataError("The client_id is not a URL.");
    }
    if (
      !(await this.perHost.consume(host).then(
        () => true,
        () => false,
      ))
    )
      throw new ClientMetadataError("Too many client metadata fetches for this host; try again in a minute.");
    let fetched;
    try {
      fetched = await guardedFetchJson(clientId, this.guard);
    } catch (err) {
      throw new ClientMetadataError(err instanceof GuardRefusal ? err.message : "The client metadata document could not be fetched.");
    }
    const doc = documentSchema.safeParse(fetched.body);
    if (!doc.success) throw new ClientMetadataError("The client metadata document lacks client_id, client_name or redirect_uris, or asks for a client secret.");
    if (doc.data.client_id !== clientId) throw new ClientMetadataError("The client metadata document names another client_id.");
    if (!doc.data.redirect_uris.every(isAcceptableRedirect)) throw new ClientMetadataError("A redirect URI is neither https nor loopback http.");
    const value = { clientId, clientName: doc.data.client_name, redirectUris: doc.data.redirect_uris };
    const ttl = Math.min(MAX_TTL_S, Math.max(MIN_TTL_S, fetched.maxAge ?? DEFAULT_TTL_S));
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(clientId, { value, until: now + ttl * 1000 });
    return value;
  }
}
