/**
 * One structured-output call to a model, for the extraction pipeline. It never throws: whatever
 * happens becomes an AI call record (shared/ai.ts) with an outcome, tokens and cost, and the parsed
 * object when the outcome is `ok`. Retrying is the caller's business (the job queue backs off), so
 * the AI SDK's own retries are off.
 */
import { generateText, Output, type FinishReason, type LanguageModelUsage, type ProviderMetadata } from "ai";
import type { z } from "zod";
import type { AiCallRecord, AiCost, CostSource, PaidBy, ProviderKind } from "../../shared/ai.js";
import { fromError, fromFinishReason, type Ended } from "./outcome.js";
import { priceFromTable, reportedCost } from "./prices.js";
import { languageModel, type FetchFunction, type ProviderSettings } from "./providers.js";

export const DEFAULT_TIMEOUT_MS = 60_000;
/** Ample for a thing's fields; said explicitly so no package guesses a limit of its own for an unknown model. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

export interface ExtractImage {
  bytes: Uint8Array;
  /** image/jpeg, image/png, image/webp ... as the file store decided from the bytes. */
  mime: string;
}

export interface ExtractRequest<T> {
  provider: ProviderSettings;
  paidBy: PaidBy;
  /** The answer's shape (built from a thing type's fields); sent as JSON schema, and the answer is validated by it. */
  schema: z.ZodType<T>;
  prompt: string;
  system?: string;
  images: ExtractImage[];
  /** The caller's cancel (a newer extraction superseded this one, shutdown). */
  signal?: AbortSignal;
  timeoutMs?: number;
  maxOutputTokens?: number;
  /**
   * The HTTP client. A base URL a person entered must go through the guard (guarded-fetch.ts,
   * `guardedAiFetch`); the instance's own configuration is trusted and may leave this unset.
   */
  fetch?: FetchFunction;
}

/** Input and output tokens apart (ai_calls.tokens_in, tokens_out): a call costed later (price_table_later) needs both. */
export interface TokenUsage {
  input: number;
  output: number;
}

export type ExtractResult<T> =
  | { record: AiCallRecord; usage: TokenUsage; object: T; retryAfterSeconds: null }
  | { record: AiCallRecord; usage: TokenUsage; object: null; retryAfterSeconds: number | null };

interface Answer {
  finishReason: FinishReason;
  usage: LanguageModelUsage;
  providerMetadata: ProviderMetadata | undefined;
}

function tokensOf(usage: LanguageModelUsage | undefined): TokenUsage {
  return { input: usage?.inputTokens ?? 0, output: usage?.outputTokens ?? 0 };
}

/** The provider's own figure first (OpenRouter usage accounting), then the table, else unknown. */
function costOf(kind: ProviderKind, model: string, answer: Answer | null): { cost?: AiCost; costSource: CostSource } {
  if (kind === "router") {
    const usage = answer?.providerMetadata?.["openrouter"]?.["usage"];
    const reported = usage && typeof usage === "object" && !Array.isArray(usage) ? reportedCost(usage["cost"], "USD") : null;
    if (reported) return { cost: reported, costSource: "provider" };
  }
  const fromTable = priceFromTable(kind, model, tokensOf(answer?.usage));
  return fromTable ? { cost: fromTable, costSource: "price_table" } : { costSource: "unknown" };
}

function record(req: { provider: ProviderSettings; paidBy: PaidBy; images: number }, answer: Answer | null, end: Ended): AiCallRecord {
  const t = tokensOf(answer?.usage);
  return {
    model: req.provider.model,
    providerKind: req.provider.kind,
    tokens: t.input + t.output,
    images: req.images,
    ...costOf(req.provider.kind, req.provider.model, answer),
    paidBy: req.paidBy,
    outcome: end.outcome,
    errorCode: end.errorCode,
  };
}

export async function extractStructured<T>(req: ExtractRequest<T>): Promise<ExtractResult<T>> {
  const deadline = AbortSignal.timeout(req.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
  const meta = { provider: req.provider, paidBy: req.paidBy, images: req.images.length };
  let answer: Answer | null = null;
  try {
    const result = await generateText({
      model: languageModel(req.provider, req.fetch),
      output: Output.object({ schema: req.schema, name: "extraction" }),
      ...(req.system ? { system: req.system } : {}),
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: req.prompt }, ...req.images.map((img) => ({ type: "image" as const, image: img.bytes, mediaType: img.mime }))],
        },
      ],
      maxOutputTokens: req.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
      maxRetries: 0,
      abortSignal: signal,
      onStepFinish: (step) => {
        answer = { finishReason: step.finishReason, usage: step.usage, providerMetadata: step.providerMetadata };
      },
    });
    // A refusal or a cut-off answer can still parse (a refusal written as JSON, a short object): the
    // finish reason outranks the parse.
    const said = fromFinishReason(result.finishReason);
    const usage = tokensOf((answer as Answer | null)?.usage);
    if (said) return { record: record(meta, answer, said), usage, object: null, retryAfterSeconds: null };
    const object = result.output;
    return { record: record(meta, answer, { outcome: "ok", errorCode: null, retryAfterSeconds: null }), usage, object, retryAfterSeconds: null };
  } catch (err) {
    const end: Ended = deadline.aborted
      ? { outcome: "timeout", errorCode: "deadline", retryAfterSeconds: null }
      : req.signal?.aborted
        ? { outcome: "timeout", errorCode: "cancelled", retryAfterSeconds: null }
        : (fromFinishReason((answer as Answer | null)?.finishReason) ?? fromError(err));
    return { record: record(meta, answer, end), usage: tokensOf((answer as Answer | null)?.usage), object: null, retryAfterSeconds: end.retryAfterSeconds };
  }
}

export type NotSentReason = "over_budget" | "no_provider";

/**
 * The record of a call refused before anything was sent: over budget, or no usable provider for
 * the scope that would pay (a key missing). When nothing at all is configured the extraction's
 * status says `no_provider` and there is no call to record.
 */
export function notSent(req: { provider: Pick<ProviderSettings, "kind" | "model">; paidBy: PaidBy; images: number }, reason: NotSentReason): AiCallRecord {
  return {
    model: req.provider.model,
    providerKind: req.provider.kind,
    tokens: 0,
    images: req.images,
    costSource: "not_sent",
    paidBy: req.paidBy,
    outcome: reason === "over_budget" ? "over_budget" : "provider_error",
    errorCode: reason,
  };
}
