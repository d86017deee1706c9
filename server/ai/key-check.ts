/**
 * A key check when AI settings are saved with `check: true`: one cheap authenticated GET to the
 * provider (its model list; OpenRouter's key info, as its model list needs no key), through the
 * address guard whatever the host. Nothing is generated, so nothing is paid for. Only the status is
 * read: a provider's body can echo the request, and the key with it.
 */
import type { ProviderKind } from "../../shared/ai.js";
import { keyRefusalStatus } from "./key-refusal.js";
import type { FetchFunction } from "./providers.js";

/** The packages' own defaults, so a check reaches the host the calls will. */
const DEFAULT_BASE: Record<Exclude<ProviderKind, "compatible_api">, string> = {
  provider_a: "https://api.openai.com/v1",
  provider_b: "https://api.anthropic.com/v1",
  provider_c: "https://generativelanguage.googleapis.com/v1beta",
  provider_d: "https://api.mistral.ai/v1",
  router: "https://openrouter.ai/api/v1",
};

const CHECK_TIMEOUT_MS = 10_000;

export type KeyCheck = { ok: true } | { ok: false; refused: number } | { ok: false; unreachable: string };

function requestOf(kind: ProviderKind, base: string, apiKey: string | undefined): { url: string; headers: Record<string, string> } {
  const root = base.replace(/\/+$/, "");
  const bearer: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
  switch (kind) {
    case "provider_b":
      return { url: `${root}/models`, headers: { "x-api-key": apiKey ?? "", "anthropic-version": "2023-06-01" } };
    case "provider_c":
      return { url: `${root}/models`, headers: { "x-goog-api-key": apiKey ?? "" } };
    case "router":
      return { url: `${root}/key`, headers: bearer };
    default:
      return { url: `${root}/models`, headers: bearer };
  }
}

export async function checkApiKey(
  p: { kind: ProviderKind; apiKey: string | undefined; baseUrl: string | undefined },
  fetch: FetchFunction,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<KeyCheck> {
  const base = p.baseUrl ?? (p.kind === "compatible_api" ? undefined : DEFAULT_BASE[p.kind]);
  if (!base) return { ok: false, unreachable: "no base URL" };
  const { url, headers } = requestOf(p.kind, base, p.apiKey);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const res = await fetch(url, { method: "GET", headers: { accept: "application/json", ...headers }, signal });
    // Read to the end (the guarded fetch bounds it): Gemini's wrong key is a 400 whose reason is in
    // the body. Nothing else of the body is kept.
    const body = await res.text();
    if (res.ok) return { ok: true };
    const refused = keyRefusalStatus(res.status, body);
    return refused !== null ? { ok: false, refused } : { ok: false, unreachable: `HTTP ${res.status}` };
  } catch {
    return { ok: false, unreachable: signal.aborted ? "no answer in time" : "no connection" };
  }
}
