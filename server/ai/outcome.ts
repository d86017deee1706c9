/**
 * How a call ended, as an outcome of the AI call record and a short stable errorCode. The codes are
 * ours: a provider's own message can echo the request (and with it a key or a prompt), so none of
 * it is kept.
 */
import { APICallError, JSONParseError, NoObjectGeneratedError, NoOutputGeneratedError, RetryError, TypeValidationError, type FinishReason } from "ai";
import type { AiOutcome } from "../../shared/ai.js";
import { GuardRefusal } from "../oauth/guarded-fetch.js";
import { keyRefusalStatus } from "./key-refusal.js";
import { ProviderSettingsError } from "./providers.js";

export interface Ended {
  outcome: AiOutcome;
  errorCode: string | null;
  /** From a 429's Retry-After, for the caller's backoff. */
  retryAfterSeconds: number | null;
}

const ended = (outcome: AiOutcome, errorCode: string | null, retryAfterSeconds: number | null = null): Ended => ({ outcome, errorCode, retryAfterSeconds });

/** The model answered, but the answer itself says it is not an answer. */
export function fromFinishReason(reason: FinishReason | undefined): Ended | null {
  // Each package maps its provider's refusal here: OpenAI's refusal field, Anthropic's stop_reason
  // "refusal", Gemini's SAFETY family, content_filter elsewhere.
  if (reason === "content-filter") return ended("refused", "content_filter");
  if (reason === "length") return ended("truncated", "max_tokens");
  return null;
}

function retryAfter(headers: Record<string, string> | undefined): number | null {
  const raw = headers?.["retry-after"];
  if (!raw) return null;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(raw);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** Any error out of a call, after the deadline and the finish reason had their say. */
export function fromError(err: unknown): Ended {
  const e = RetryError.isInstance(err) ? err.lastError : err;
  if (NoObjectGeneratedError.isInstance(e)) {
    if (JSONParseError.isInstance(e.cause)) return ended("schema_invalid", "not_json");
    if (TypeValidationError.isInstance(e.cause)) return ended("schema_invalid", "schema_mismatch");
    return ended("schema_invalid", "no_object");
  }
  if (NoOutputGeneratedError.isInstance(e)) return ended("schema_invalid", "no_output");
  if (APICallError.isInstance(e)) {
    if (e.statusCode === 429) return ended("rate_limited", "http_429", retryAfter(e.responseHeaders));
    const refused = keyRefusalStatus(e.statusCode, e.responseBody);
    if (refused !== null) return ended("provider_error", `key_refused_${refused}`);
    return ended("provider_error", e.statusCode ? `http_${e.statusCode}` : "network");
  }
  if (e instanceof GuardRefusal) return ended("provider_error", "base_url_refused");
  if (e instanceof ProviderSettingsError) return ended("provider_error", e.code);
  // A 200 whose body the package could not read as the provider's format, and anything else.
  return ended("provider_error", "bad_response");
}
