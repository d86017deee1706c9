/**
 * AI settings (issue "inbox-ai"): who pays for extraction calls. A person may bring their own
 * provider and key (scope `user`), an owner may set one for everything in their account's
 * locations (scope `account`), and the instance may have its own (SVC_AI_*, scope `instance`).
 * Keys go in and never come out: a view says only whether one is stored. Budgets are per scope
 * and calendar month (UTC), in the budget's currency. Never open to a personal token (spec
 * "Personal tokens" 5).
 */
import { z } from "zod";
import { aiCostSchema, paidByScopeSchema, providerKindSchema } from "./ai.js";

/** A money amount with up to 6 decimals (AI calls cost fractions of a cent). */
export const aiAmountSchema = z.string().regex(/^\d{1,9}(\.\d{1,6})?$/, "must be a decimal amount with at most 6 decimals");

export const aiBudgetSchema = z.object({ amount: aiAmountSchema, currency: z.string().regex(/^[A-Z]{3}$/) });
export type AiBudget = z.infer<typeof aiBudgetSchema>;

/** `PUT /api/v1/me/ai-settings` and `PUT /api/v1/me/account/ai-settings`. */
export const aiSettingsBody = z
  .object({
    providerKind: providerKindSchema,
    model: z.string().trim().min(1).max(200),
    /** Omitted: keep the stored key. null: forget it. */
    apiKey: z.string().min(1).max(500).nullable().optional(),
    /** Required for `compatible_api`; checked against internal addresses before it is stored. */
    baseUrl: z.string().url().max(500).nullable().optional(),
    /** null: no budget (spend is still counted). */
    monthlyBudget: aiBudgetSchema.nullable().optional(),
    enabled: z.boolean().default(true),
    /**
     * true: before saving, ask the provider whether it takes the key (one cheap authenticated
     * request, nothing generated). Refused: 400 on `apiKey`, nothing saved. The provider could not
     * say (down, limited, no answer): 503, nothing saved. Omitted or false: saved unchecked.
     */
    check: z.boolean().optional(),
  })
  .strict();
export type AiSettingsBody = z.infer<typeof aiSettingsBody>;

/** What a person sees of stored settings: never the key. */
export const aiSettingsViewSchema = z
  .object({
    scope: z.enum(["account", "user"]),
    providerKind: providerKindSchema,
    model: z.string(),
    baseUrl: z.string().nullable(),
    hasKey: z.boolean(),
    /** The provider refused the stored key (HTTP status, when): null once it is replaced or a call with it succeeds. */
    keyRefused: z.object({ status: z.number().int(), at: z.string() }).nullable(),
    monthlyBudget: aiBudgetSchema.nullable(),
    enabled: z.boolean(),
    /** This month's spend under these settings (calls with a known cost). */
    spentThisMonth: aiCostSchema,
    updatedAt: z.string(),
  })
  .meta({ id: "AiSettings" });
export type AiSettingsView = z.infer<typeof aiSettingsViewSchema>;

/** `GET /api/v1/me/ai-settings`: the person's own, their account's (they are its owner), and whether the instance pays. */
export const aiSettingsOverviewSchema = z.object({
  user: aiSettingsViewSchema.nullable(),
  account: aiSettingsViewSchema.nullable(),
  instance: z.object({ providerKind: providerKindSchema, model: z.string(), monthlyBudget: aiBudgetSchema.nullable() }).nullable(),
});
export type AiSettingsOverview = z.infer<typeof aiSettingsOverviewSchema>;

/** `GET /api/v1/locations/{id}/ai-costs?month=YYYY-MM` (owners and admins). */
export const aiCostQuerySchema = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be YYYY-MM")
    .optional(),
});
export const aiCostLineSchema = z.object({
  scope: paidByScopeSchema,
  label: z.string(),
  model: z.string(),
  providerKind: providerKindSchema,
  calls: z.number().int(),
  tokens: z.number().int(),
  images: z.number().int(),
  /** Sum of the calls with a known cost; `uncosted` counts the others. */
  cost: aiCostSchema.nullable(),
  uncosted: z.number().int(),
});
export const aiCostSummarySchema = z
  .object({ locationId: z.string(), month: z.string(), lines: z.array(aiCostLineSchema), totals: z.array(aiCostSchema) })
  .meta({ id: "AiCostSummary" });
export type AiCostSummary = z.infer<typeof aiCostSummarySchema>;
