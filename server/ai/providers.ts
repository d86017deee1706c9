/**
 * One language model per provider kind (shared/ai.ts), built from the real provider packages of
 * the AI SDK. Nothing here sends a request; extract.ts does, through the `fetch` handed in.
 */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createOpenRouter } from "@openrouter/ai-sdk-provider";
import type { LanguageModel } from "ai";
import type { ProviderKind } from "../../shared/ai.js";

/** What a call needs to reach a provider. The key is a secret: it goes into a header and nowhere else. */
export interface ProviderSettings {
  kind: ProviderKind;
  model: string;
  /** Optional for compatible_api (a local server may want none); the others refuse to send without one. */
  apiKey?: string | undefined;
  /** Required for compatible_api; for the others, a different endpoint (a proxy, or a test stand-in). */
  baseUrl?: string | undefined;
}

export type FetchFunction = typeof globalThis.fetch;

export class ProviderSettingsError extends Error {
  constructor(readonly code: "no_api_key" | "no_base_url") {
    super(code === "no_api_key" ? "An API key is needed for this provider" : "compatible_api needs a base URL");
    this.name = "ProviderSettingsError";
  }
}

/** The kinds whose own wire format carries the reported cost of the call (router: OpenRouter usage accounting). */
export const REPORTS_COST: ReadonlySet<ProviderKind> = new Set(["router"]);

export function languageModel(p: ProviderSettings, fetch: FetchFunction | undefined): LanguageModel {
  if (p.kind === "compatible_api" && !p.baseUrl) throw new ProviderSettingsError("no_base_url");
  // The packages fall back to OPENAI_API_KEY and friends when no key is given; a call paid by a user
  // or an account must never borrow the instance's environment, so a missing key stops here.
  if (p.kind !== "compatible_api" && !p.apiKey) throw new ProviderSettingsError("no_api_key");
  const common = { ...(p.apiKey ? { apiKey: p.apiKey } : {}), ...(p.baseUrl ? { baseURL: p.baseUrl } : {}), ...(fetch ? { fetch } : {}) };
  switch (p.kind) {
    case "provider_a":
      // The Responses API, as openai(model) picks by default in @ai-sdk/openai 3.
      return createOpenAI(common).responses(p.model);
    case "provider_b":
      return createAnthropic(common).languageModel(p.model);
    case "provider_c":
      return createGoogleGenerativeAI(common).languageModel(p.model);
    case "provider_d":
      return createMistral(common).languageModel(p.model);
    case "router":
      // usage.include asks OpenRouter for usage accounting: the answer then carries the call's cost.
      return createOpenRouter(common).chat(p.model, { usage: { include: true } });
    case "compatible_api":
      // Without supportsStructuredOutputs the package sends json_object with no schema, and a server
      // that only follows a schema it is given answers {} (research/stack-spike-2.md).
      return createOpenAICompatible({ name: "compatible", baseURL: p.baseUrl!, ...common, supportsStructuredOutputs: true, includeUsage: true }).chatModel(
        p.model,
      );
    default: {
      const never: never = p.kind;
      throw new Error(`unknown provider kind ${String(never)}`);
    }
  }
}
