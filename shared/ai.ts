/**
 * The AI call record (spec "AI call record"): what one call to a model cost, who paid and how it
 * ended. Provider kinds have neutral names in the contract; server/ai/providers.ts maps them to
 * the real provider packages.
 */
import { z } from "zod";
import { uuidSchema } from "./ids.js";

/** provider_a OpenAI, provider_b Anthropic, provider_c Google, compatible_api any OpenAI-compatible server, router OpenRouter, provider_d Mistral. */
export const PROVIDER_KINDS = ["provider_a", "provider_b", "provider_c", "compatible_api", "router", "provider_d"] as const;
export const providerKindSchema = z.enum(PROVIDER_KINDS);
export type ProviderKind = z.infer<typeof providerKindSchema>;

/**
 * provider: the provider reported the cost; price_table: our shipped, dated table; price_table_later:
 * a job costs it once the table knows the model; unknown: nobody knows; not_sent: refused before sending.
 */
export const COST_SOURCES = ["provider", "price_table", "price_table_later", "unknown", "not_sent"] as const;
export const costSourceSchema = z.enum(COST_SOURCES);
export type CostSource = z.infer<typeof costSourceSchema>;

export const AI_OUTCOMES = ["ok", "refused", "rate_limited", "over_budget", "provider_error", "timeout", "schema_invalid", "truncated"] as const;
export const aiOutcomeSchema = z.enum(AI_OUTCOMES);
export type AiOutcome = z.infer<typeof aiOutcomeSchema>;

export const paidByScopeSchema = z.enum(["instance", "account", "user"]);
export const paidBySchema = z.object({ scope: paidByScopeSchema, label: z.string(), mine: z.boolean() });
export type PaidBy = z.infer<typeof paidBySchema>;

/** A decimal amount as a string (never a float) in an ISO 4217 currency. */
export const aiCostSchema = z.object({
  amount: z.string().regex(/^\d+(\.\d+)?$/),
  currency: z.string().regex(/^[A-Z]{3}$/),
});
export type AiCost = z.infer<typeof aiCostSchema>;

export const aiCallRecordSchema = z
  .object({
    id: uuidSchema.optional(),
    model: z.string(),
    providerKind: providerKindSchema,
    tokens: z.number().int().min(0),
    images: z.number().int().min(0),
    cost: aiCostSchema.optional(),
    costSource: costSourceSchema,
    paidBy: paidBySchema,
    outcome: aiOutcomeSchema,
    /** A short stable code (server/ai/outcome.ts), never a provider's own message. */
    errorCode: z.string().nullable(),
  })
  .meta({ id: "AiCallRecord" });
export type AiCallRecord = z.infer<typeof aiCallRecordSchema>;

/** The history entry's form: the record with the task it served. */
export const aiCallWithTaskSchema = aiCallRecordSchema.extend({ task: z.string() }).meta({ id: "AiCallWithTask" });
export type AiCallWithTask = z.infer<typeof aiCallWithTaskSchema>;
