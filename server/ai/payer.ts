/**
 * Who pays for an extraction (spec "AI call record" paidBy): the person who asked, with their own
 * enabled AI settings; else the owner account of the location, with its enabled settings; else the
 * instance (SVC_AI_*); else nobody (the extraction's status is `no_provider`). Settings a person
 * chose pay even when their key no longer opens (a changed server secret): the provider then has
 * no key and the call is refused before sending, rather than silently charged to someone else.
 */
import { Decimal } from "decimal.js";
import type { SQL } from "drizzle-orm";
import type { ProviderKind } from "../../shared/ai.js";
import type { AiBudget } from "../../shared/ai-settings.js";
import type { Config } from "../config.js";
import { rows, sql, type Queryable } from "../db/client.js";
import { instanceProvider } from "./instance.js";
import { openApiKey } from "./keys.js";
import type { Payer } from "./paying.js";
import { decimalString } from "./prices.js";

/** An ai_settings row with what a payer needs around it. */
export interface SettingsRow {
  id: string;
  scope: "account" | "user";
  account_id: string | null;
  user_id: string | null;
  provider_kind: ProviderKind;
  model: string;
  base_url: string | null;
  api_key_sealed: string | null;
  budget_amount: string | null;
  budget_currency: string | null;
  enabled: boolean;
  updated_at: Date | string;
  key_refused_at: Date | string | null;
  key_refused_status: number | null;
  /** The account whose key seals the API key (keys.ts). */
  key_account_id: string;
  /** The person the settings belong to (the account's owner for scope `account`). */
  owner_name: string;
}

const SETTINGS_COLUMNS = sql`s.id, s.scope, s.account_id, s.user_id, s.provider_kind, s.model, s.base_url, s.api_key_sealed,
  s.budget_amount::text AS budget_amount, s.budget_currency, s.enabled, s.updated_at, s.key_refused_at, s.key_refused_status`;

/** The one settings row `rest` selects (its key account, owner name, joins and filter), or null. */
async function settingsRow(q: Queryable, rest: SQL): Promise<SettingsRow | null> {
  const [row] = await rows<SettingsRow>(q, sql`SELECT ${SETTINGS_COLUMNS}, ${rest}`);
  return row ?? null;
}

/** A person's own settings (enabled or not). */
export const userSettings = (q: Queryable, userId: string) =>
  settingsRow(
    q,
    sql`a.id AS key_account_id, u.name AS owner_name
        FROM ai_settings s JOIN users u ON u.id = s.user_id JOIN accounts a ON a.owner_user_id = s.user_id
        WHERE s.user_id = ${userId}`,
  );

/** An owner account's settings (enabled or not). */
export const accountSettings = (q: Queryable, accountId: string) =>
  settingsRow(
    q,
    sql`s.account_id AS key_account_id, u.name AS owner_name
        FROM ai_settings s JOIN accounts a ON a.id = s.account_id JOIN users u ON u.id = a.owner_user_id
        WHERE s.account_id = ${accountId}`,
  );

/** numeric(15,6) comes back as "25.000000"; the contract's amounts carry no trailing zeros. */
export function budgetOf(row: Pick<SettingsRow, "budget_amount" | "budget_currency">): AiBudget | null {
  if (row.budget_amount === null || row.budget_currency === null) return null;
  return { amount: decimalString(new Decimal(row.budget_amount)), currency: row.budget_currency };
}

export const accountLabel = (ownerName: string) => `${ownerName} (account)`;

function settingsPayer(row: SettingsRow): Payer {
  const apiKey = row.api_key_sealed
    ? openApiKey({ settingsId: row.id, accountId: row.key_account_id, providerKind: row.provider_kind, baseUrl: row.base_url }, row.api_key_sealed)
    : null;
  const isUser = row.scope === "user";
  return {
    provider: { kind: row.provider_kind, model: row.model, apiKey: apiKey ?? undefined, baseUrl: row.base_url ?? undefined },
    paidBy: { scope: row.scope, label: isUser ? row.owner_name : accountLabel(row.owner_name), mine: false },
    payerKey: isUser ? `user:${row.user_id}` : `account:${row.account_id}`,
    userId: row.user_id,
    accountId: row.account_id,
    budget: budgetOf(row),
    guarded: row.base_url !== null,
    key: { settingsId: row.id, sealed: row.api_key_sealed },
  };
}

export async function resolvePayer(db: Queryable, config: Pick<Config, "ai">, who: { locationId: string; requestedBy: string | null }): Promise<Payer | null> {
  if (who.requestedBy) {
    const mine = await userSettings(db, who.requestedBy);
    if (mine?.enabled) return settingsPayer(mine);
  }
  const [location] = await rows<{ account_id: string }>(db, sql`SELECT account_id FROM locations WHERE id = ${who.locationId}`);
  if (location) {
    const account = await accountSettings(db, location.account_id);
    if (account?.enabled) return settingsPayer(account);
  }
  const instance = instanceProvider(config);
  if (!instance) return null;
  return {
    provider: instance,
    paidBy: { scope: "instance", label: "Instance", mine: false },
    payerKey: "instance",
    userId: null,
    accountId: null,
    budget: config.ai?.monthlyBudget ?? null,
    guarded: false,
    key: null,
  };
}

/**
 * What the provider said of the key a call used: refused (with its status), or accepted (a call
 * that succeeded). Written only while the row still holds that key, so a key replaced while the
 * call was in flight is not marked for the old one's refusal.
 */
export async function markKey(q: Queryable, payer: Payer, refusedStatus: number | null, now: Date): Promise<void> {
  if (!payer.key?.sealed) return;
  const at = refusedStatus === null ? null : now.toISOString();
  await q.execute(
    sql`UPDATE ai_settings SET key_refused_at = ${at}::timestamptz, key_refused_status = ${refusedStatus}
        WHERE id = ${payer.key.settingsId} AND api_key_sealed = ${payer.key.sealed}
          AND key_refused_status IS DISTINCT FROM ${refusedStatus}::int`,
  );
}
