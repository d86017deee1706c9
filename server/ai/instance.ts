/** The instance's own provider (SVC_AI_*), as the call layer takes it; null when none is configured. */
import type { Config } from "../config.js";
import type { ProviderSettings } from "./providers.js";

export function instanceProvider(config: Pick<Config, "ai">): ProviderSettings | null {
  const ai = config.ai;
  if (!ai) return null;
  return { kind: ai.kind, model: ai.model, apiKey: ai.apiKey, baseUrl: ai.baseUrl };
}
