/**
 * /api/v1/me/ai-settings, /api/v1/me/account/ai-settings and /api/v1/locations/:id/ai-costs.
 * Sessions only: AI settings are never open to a personal token (spec "Personal tokens" 5;
 * server/modules/tokens/allow-list.ts). No route answers a key, only whether one is stored.
 */
import { z } from "zod";
import { aiCostQuerySchema, aiCostSummarySchema, aiSettingsBody, aiSettingsOverviewSchema, aiSettingsViewSchema } from "../../../shared/ai-settings.js";
import { aiGuard } from "../../ai/guard-policy.js";
import { idParams, defineRoute, type RouteDef, type RouteDeps } from "../../http/route.js";
import { deleteSettings, locationCosts, overview, saveSettings, type Scope } from "./service.js";

const KEY_RULE =
  "`apiKey` omitted keeps the stored key, null removes it; changing the provider kind or the base URL without a new key forgets the stored one (a key is only ever sent to the host it was entered for). A base URL must be https on a public address; compatible_api needs one, the other kinds a key. `monthlyBudget` is in USD; omitted or null, no limit. `check: true` asks the provider about the key first (one cheap authenticated request): refused, 400 on `apiKey` (details.reason key_refused, providerStatus); the provider could not say, 503; nothing is saved either way. The view's `keyRefused` says when a call last found the stored key refused.";

export function aiSettingsRoutes(deps: Pick<RouteDeps, "db" | "config">): RouteDef[] {
  const { db, config } = deps;
  const guard = aiGuard(config);
  const settingsRoutes = (scope: Scope, path: string, whose: string): RouteDef[] => [
    defineRoute({
      method: "put",
      path,
      summary: `Set ${whose} AI provider, key and monthly budget. ${KEY_RULE}`,
      tag: "ai-settings",
      body: aiSettingsBody,
      response: aiSettingsViewSchema,
      handler: ({ actor, body }) => saveSettings(db, guard, actor, scope, body),
    }),
    defineRoute({
      method: "delete",
      path,
      summary: `Remove ${whose} AI settings and the stored key (what was spent stays counted)`,
      tag: "ai-settings",
      response: z.undefined(),
      status: 204,
      async handler({ actor, res }) {
        await deleteSettings(db, actor, scope);
        res.status(204).end();
        return undefined;
      },
    }),
  ];
  return [
    defineRoute({
      method: "get",
      path: "/api/v1/me/ai-settings",
      summary:
        "Your AI settings, those of the account you own, and the instance's provider: who may pay for extractions. Never a key, only whether one is stored.",
      tag: "ai-settings",
      response: aiSettingsOverviewSchema,
      handler: ({ actor }) => overview(db, config, actor),
    }),
    ...settingsRoutes("user", "/api/v1/me/ai-settings", "your own (you pay for the extractions you ask for, in any location)"),
    ...settingsRoutes(
      "account",
      "/api/v1/me/account/ai-settings",
      "your owner account's (it pays for extractions in its locations when the person asking has none of their own)",
    ),
    defineRoute({
      method: "get",
      path: "/api/v1/locations/:id/ai-costs",
      summary: "What AI calls for this location cost in a month (default: this month, UTC), by payer and model, with totals per currency (owners and admins)",
      tag: "ai-settings",
      params: idParams,
      query: aiCostQuerySchema,
      response: aiCostSummarySchema,
      handler: ({ actor, params, query }) => locationCosts(db, actor, params.id, query.month),
    }),
  ] as RouteDef[];
}
