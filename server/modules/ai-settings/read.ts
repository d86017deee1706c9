/** Reads of AI settings and spend: the views a person sees (never a key) and a location's cost summary. */
import { Decimal } from "decimal.js";
import type { AiCost, ProviderKind } from "../../../shared/ai.js";
import type { AiCostSummary, AiSettingsView } from "../../../shared/ai-settings.js";
import { budgetOf, type SettingsRow } from "../../ai/payer.js";
import { decimalString, PRICE_TABLE } from "../../ai/prices.js";
import { rows, sql, type Queryable } from "../../db/client.js";

export const payerKeyOf = (row: Pick<SettingsRow, "scope" | "user_id" | "account_id">) =>
  row.scope === "user" ? `user:${row.user_id}` : `account:${row.account_id}`;

/** What a payer has spent in a month (calls with a known cost); nothing yet reads as zero in the budget's currency. */
export async function spentIn(q: Queryable, payerKey: string, month: string, currency: string): Promise<AiCost> {
  const [row] = await rows<{ spent: string; currency: string }>(
    q,
    sql`SELECT spent::text AS spent, currency FROM ai_budget_months WHERE payer_key = ${payerKey} AND month = ${month}`,
  );
  return row ? { amount: decimalString(new Decimal(row.spent)), currency: row.currency } : { amount: "0", currency };
}

export async function settingsView(q: Queryable, row: SettingsRow, month: string): Promise<AiSettingsView> {
  const budget = budgetOf(row);
  return {
    scope: row.scope,
    providerKind: row.provider_kind,
    model: row.model,
    baseUrl: row.base_url,
    hasKey: row.api_key_sealed !== null,
    keyRefused:
      row.api_key_sealed !== null && row.key_refused_status !== null && row.key_refused_at !== null
        ? { status: row.key_refused_status, at: new Date(row.key_refused_at).toISOString() }
        : null,
    monthlyBudget: budget,
    enabled: row.enabled,
    spentThisMonth: await spentIn(q, payerKeyOf(row), month, budget?.currency ?? PRICE_TABLE.currency),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

interface CostGroup {
  scope: "instance" | "account" | "user";
  label: string;
  model: string;
  provider_kind: ProviderKind;
  currency: string | null;
  calls: number;
  tokens: number;
  images: number;
  amount: string | null;
}

type Line = AiCostSummary["lines"][number];

const lineOf = (g: CostGroup, cost: Line["cost"], uncosted: number): Line => ({
  scope: g.scope,
  label: g.label,
  model: g.model,
  providerKind: g.provider_kind,
  calls: g.calls,
  tokens: g.tokens,
  images: g.images,
  cost,
  uncosted,
});

/**
 * The calls sent for a location in a month (not_sent ones cost nothing and are left out), one line
 * per payer label and model. Calls of unknown cost count in `uncosted`; a line whose calls were
 * costed in two currencies (a table in another currency after an upgrade) becomes two lines.
 */
export async function costSummary(q: Queryable, locationId: string, month: string): Promise<AiCostSummary> {
  const groups = await rows<CostGroup>(
    q,
    sql`SELECT paid_by_scope AS scope, paid_by_label AS label, model, provider_kind,
               CASE WHEN cost_amount IS NULL THEN NULL ELSE cost_currency END AS currency,
               count(*)::int AS calls, coalesce(sum(tokens), 0)::int AS tokens, coalesce(sum(images), 0)::int AS images,
               sum(cost_amount)::text AS amount
        FROM ai_calls
        WHERE location_id = ${locationId} AND month = ${month} AND cost_source <> 'not_sent'
        GROUP BY 1, 2, 3, 4, 5
        ORDER BY 1, 2, 3, 4, 5 NULLS LAST`,
  );
  const lines = new Map<string, Line[]>();
  const uncosted = new Map<string, CostGroup>();
  for (const g of groups) {
    const key = JSON.stringify([g.scope, g.label, g.model, g.provider_kind]);
    if (g.currency === null) {
      uncosted.set(key, g);
      continue;
    }
    const line = lineOf(g, { amount: decimalString(new Decimal(g.amount ?? "0")), currency: g.currency }, 0);
    lines.set(key, [...(lines.get(key) ?? []), line]);
  }
  for (const [key, g] of uncosted) {
    const first = lines.get(key)?.[0];
    if (first) {
      first.calls += g.calls;
      first.tokens += g.tokens;
      first.images += g.images;
      first.uncosted = g.calls;
    } else {
      const line = lineOf(g, null, g.calls);
      lines.set(key, [line]);
    }
  }
  const order = (l: Line) => [l.scope, l.label, l.model, l.providerKind, l.cost?.currency ?? ""].join("\u0000");
  const all = [...lines.values()].flat().sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
  const totals = new Map<string, Decimal>();
  for (const l of all) if (l.cost) totals.set(l.cost.currency, (totals.get(l.cost.currency) ?? new Decimal(0)).plus(l.cost.amount));
  return {
    locationId,
    month,
    lines: all,
    totals: [...totals].map(([currency, amount]) => ({ amount: decimalString(amount), currency })),
  };
}
