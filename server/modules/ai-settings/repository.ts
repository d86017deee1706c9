/**
 * The SQL of AI settings and spend: a person's and their account's settings rows (the service's own
 * rows: app_role has no grant on ai_settings), the views a person sees of them (never a key), and a
 * location's cost summary. No access checks here; service.ts makes them.
 */
import { Decimal } from "decimal.js";
import type { AiCost, ProviderKind } from "../../../shared/ai.js";
import type { AiCostSummary, AiSettingsView } from "../../../shared/ai-settings.js";
import { accountSettings, budgetOf, userSettings, type SettingsRow } from "../../ai/payer.js";
import { decimalString, PRICE_TABLE } from "../../ai/prices.js";
import { rows, sql, type Queryable, type Tx } from "../../db/client.js";
import { NotFoundError } from "../../errors/classes.js";

export type Scope = "user" | "account";

/** The account the person owns (every user owns one). */
export async function ownAccountId(q: Queryable, userId: string): Promise<string> {
  const [row] = await rows<{ id: string }>(q, sql`SELECT id FROM accounts WHERE owner_user_id = ${userId}`);
  if (!row) throw new NotFoundError("account");
  return row.id;
}

/** The person's own settings row (scope user) or their account's (scope account), if any. */
export async function settingsOf(q: Queryable, scope: Scope, userId: string): Promise<SettingsRow | null> {
  return scope === "user" ? userSettings(q, userId) : accountSettings(q, await ownAccountId(q, userId));
}

/** Locks the account's row until the transaction ends: one settings writer at a time per account. */
export async function lockAccount(tx: Tx, accountId: string): Promise<void> {
  await tx.execute(sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`);
}

/** What a save writes, the key already sealed (or null). */
export interface SettingsValues {
  providerKind: SettingsRow["provider_kind"];
  model: string;
  baseUrl: string | null;
  sealedKey: string | null;
  budget: { amount: string; currency: string } | null;
  enabled: boolean;
}

const valuesOf = (v: SettingsValues) =>
  sql`${v.providerKind}, ${v.model}, ${v.baseUrl}, ${v.sealedKey}, ${v.budget?.amount ?? null}::numeric, ${v.budget?.currency ?? null}, ${v.enabled}`;

/** Rewrites a settings row; `clearRefusal` forgets the provider's refusal of the key it had. */
export async function updateSettingsRow(tx: Tx, id: string, v: SettingsValues, clearRefusal: boolean): Promise<void> {
  await tx.execute(sql`UPDATE ai_settings SET (provider_kind, model, base_url, api_key_sealed, budget_amount, budget_currency, enabled, updated_at)
                       = (${valuesOf(v)}, now()) WHERE id = ${id}`);
  if (clearRefusal) await tx.execute(sql`UPDATE ai_settings SET key_refused_at = NULL, key_refused_status = NULL WHERE id = ${id}`);
}

export async function insertSettingsRow(
  tx: Tx,
  id: string,
  scope: Scope,
  owner: { userId: string | null; accountId: string | null },
  v: SettingsValues,
): Promise<void> {
  await tx.execute(sql`INSERT INTO ai_settings (id, scope, user_id, account_id, provider_kind, model, base_url, api_key_sealed, budget_amount, budget_currency, enabled)
                       VALUES (${id}, ${scope}, ${owner.userId}, ${owner.accountId}, ${valuesOf(v)})`);
}

/** Deletes the person's (or their account's) settings; answers what was deleted, and whether it held a key. */
export async function deleteSettingsOf(tx: Tx, scope: Scope, userId: string): Promise<{ provider_kind: string; had_key: boolean }[]> {
  const owner = scope === "user" ? sql`user_id = ${userId}` : sql`account_id = ${await ownAccountId(tx, userId)}`;
  return rows<{ provider_kind: string; had_key: boolean }>(
    tx,
    sql`DELETE FROM ai_settings WHERE ${owner} RETURNING provider_kind, api_key_sealed IS NOT NULL AS had_key`,
  );
}

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
