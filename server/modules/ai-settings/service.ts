/**
 * AI settings for routes: a person's own provider (scope `user`) and that of the owner account they
 * own (scope `account`), and a location's AI cost summary. Settings rows are the service's own
 * (app_role has no grant on ai_settings): every change here acts only on the signed-in person's own
 * row, found by their user id, never by an id from the request. Keys go in and never come out.
 */
import { v7 as uuidv7 } from "uuid";
import type { AiCostSummary, AiSettingsBody, AiSettingsOverview, AiSettingsView } from "../../../shared/ai-settings.js";
import { locationAccess } from "../../access/location.js";
import { monthOf } from "../../ai/budget.js";
import { checkAiBaseUrl, guardedAiFetch } from "../../ai/guarded-fetch.js";
import { checkApiKey } from "../../ai/key-check.js";
import { openApiKey, sealApiKey } from "../../ai/keys.js";
import { PRICE_TABLE } from "../../ai/prices.js";
import { recordAudit } from "../../commands/audit.js";
import { type Actor, asSystem, withActor } from "../../db/actor.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { UnavailableError, ValidationError } from "../../errors/classes.js";
import { checkedAddress, GuardRefusal, type GuardOptions } from "../../oauth/guarded-fetch.js";
import {
  costSummary,
  deleteSettingsOf,
  insertSettingsRow,
  lockAccount,
  ownAccountId,
  settingsOf,
  settingsView,
  updateSettingsRow,
  type Scope,
  type SettingsValues,
} from "./repository.js";
import { requirePerson, requireRole } from "../../access/role.js";

export type { Scope };

/** AI settings are a person's business: never a token's or an MCP grant's (spec "Personal tokens" 5). */
function personOnly(actor: Actor): Actor {
  return requirePerson(actor, "AI settings are managed from a signed-in session only.");
}

const invalid = (field: string, message: string, reason?: string) =>
  new ValidationError(`${field}: ${message}`, { field, ...(reason ? { reason } : {}), issues: [{ path: `body.${field}`, message }] });

/** A base URL the server will call with the person's key: https, no credentials, public addresses only. */
async function checkBaseUrl(raw: string, guard: GuardOptions): Promise<string> {
  try {
    const url = checkAiBaseUrl(raw, guard);
    await checkedAddress(url, guard);
    return url.href;
  } catch (err) {
    if (!(err instanceof GuardRefusal)) throw err;
    throw invalid("baseUrl", `cannot be used: ${err.reason}. It must be an https URL of a provider on a public address.`, err.reason);
  }
}

export async function overview(db: Db, config: Pick<Config, "ai">, actor: Actor): Promise<AiSettingsOverview> {
  personOnly(actor);
  const month = monthOf(new Date());
  const user = await settingsOf(db, "user", actor.userId);
  const account = await settingsOf(db, "account", actor.userId);
  return {
    user: user ? await settingsView(db, user, month) : null,
    account: account ? await settingsView(db, account, month) : null,
    instance: config.ai ? { providerKind: config.ai.kind, model: config.ai.model, monthlyBudget: config.ai.monthlyBudget ?? null } : null,
  };
}

/**
 * PUT replaces the settings, but for the key: omitted keeps the stored one (it cannot be read back
 * to be sent again), null removes it. A stored key is kept only for the same provider kind and base
 * URL it was entered for; changing either without a new key forgets it, so a key is never sent to a
 * host its owner did not enter it for.
 */
export async function saveSettings(db: Db, guard: GuardOptions, actor: Actor, scope: Scope, body: AiSettingsBody): Promise<AiSettingsView> {
  personOnly(actor);
  const baseUrl = body.baseUrl ? await checkBaseUrl(body.baseUrl, guard) : null;
  if (body.providerKind === "compatible_api" && !baseUrl) throw invalid("baseUrl", "is needed for compatible_api (the address of the server).");
  const budget = body.monthlyBudget ?? null;
  // Prices and reported costs are in the table's currency; a budget in another could never be compared.
  if (budget && budget.currency !== PRICE_TABLE.currency)
    throw invalid("monthlyBudget.currency", `must be ${PRICE_TABLE.currency}, the currency AI costs are in.`);
  const checked = body.check ? await checkKey(db, guard, actor.userId, scope, body, baseUrl) : false;
  const saved = await asSystem(db, async (tx) => {
    const accountId = await ownAccountId(tx, actor.userId);
    // One writer at a time per account: the row is made once, and the key sealed for the row kept.
    await lockAccount(tx, accountId);
    const existing = await settingsOf(tx, scope, actor.userId);
    const id = existing?.id ?? uuidv7();
    const keyOwner = { settingsId: id, accountId, providerKind: body.providerKind, baseUrl };
    const keepable = existing?.api_key_sealed && existing.provider_kind === body.providerKind && existing.base_url === baseUrl ? existing.api_key_sealed : null;
    const sealed = typeof body.apiKey === "string" ? sealApiKey(keyOwner, body.apiKey) : body.apiKey === null ? null : keepable;
    if (body.providerKind !== "compatible_api" && !sealed) {
      const forgotten = body.apiKey === undefined && existing?.api_key_sealed;
      throw invalid(
        "apiKey",
        forgotten ? "enter the key again: a stored key is kept only for the provider and base URL it was entered for." : "is needed for this provider.",
      );
    }
    const owner = scope === "user" ? { userId: actor.userId, accountId: null } : { userId: null, accountId };
    const values: SettingsValues = { providerKind: body.providerKind, model: body.model, baseUrl, sealedKey: sealed, budget, enabled: body.enabled };
    // A refusal belongs to the key it was about: another key (or none), or the provider taking this one, clears it.
    const keepRefusal = !checked && existing !== null && sealed !== null && sealed === existing.api_key_sealed;
    if (existing) await updateSettingsRow(tx, id, values, !keepRefusal);
    else await insertSettingsRow(tx, id, scope, owner, values);
    // A new key is recorded as set; a stored key gone (removed, or forgotten with its provider) as cleared.
    const keyChange = typeof body.apiKey === "string" ? "ai_key.set" : existing?.api_key_sealed && !sealed ? "ai_key.cleared" : null;
    if (keyChange) await recordAudit(tx, actor, { action: keyChange, userId: actor.userId, params: { scope, provider: body.providerKind } });
    return (await settingsOf(tx, scope, actor.userId))!;
  });
  return settingsView(db, saved, monthOf(new Date()));
}

/**
 * Asks the provider whether it takes the key about to be saved (the one sent, or the stored one
 * kept): true when it does; a refusal is a 400 on `apiKey` and a provider that cannot say a 503,
 * both before anything is written.
 */
async function checkKey(db: Db, guard: GuardOptions, userId: string, scope: Scope, body: AiSettingsBody, baseUrl: string | null): Promise<true> {
  let apiKey = typeof body.apiKey === "string" ? body.apiKey : undefined;
  if (body.apiKey === undefined) {
    const existing = await asSystem(db, (tx) => settingsOf(tx, scope, userId));
    if (existing?.api_key_sealed && existing.provider_kind === body.providerKind && existing.base_url === baseUrl) {
      const owner = { settingsId: existing.id, accountId: existing.key_account_id, providerKind: existing.provider_kind, baseUrl: existing.base_url };
      apiKey = openApiKey(owner, existing.api_key_sealed) ?? undefined;
    }
  }
  // No key to check: the save itself says one is needed (or compatible_api's server takes none).
  if (!apiKey && body.providerKind !== "compatible_api") return true;
  const result = await checkApiKey({ kind: body.providerKind, apiKey, baseUrl: baseUrl ?? undefined }, guardedAiFetch(guard));
  if (result.ok) return true;
  if ("refused" in result) {
    const message = `the provider refused this key (HTTP ${result.refused}), so nothing was saved. Check that the key is right and is for ${body.providerKind === "compatible_api" ? "this server" : "this provider"}, then save again.`;
    throw new ValidationError(`apiKey: ${message}`, {
      field: "apiKey",
      reason: "key_refused",
      providerStatus: result.refused,
      issues: [{ path: "body.apiKey", message }],
    });
  }
  throw new UnavailableError(
    30,
    `The AI provider could not be reached to check the key (${result.unreachable}), so nothing was saved. Try again later, or save without the check.`,
  );
}

export async function deleteSettings(db: Db, actor: Actor, scope: Scope): Promise<void> {
  personOnly(actor);
  await asSystem(db, async (tx) => {
    const gone = await deleteSettingsOf(tx, scope, actor.userId);
    for (const g of gone)
      if (g.had_key) await recordAudit(tx, actor, { action: "ai_key.cleared", userId: actor.userId, params: { scope, provider: g.provider_kind } });
  });
}

/** Owners and admins of the location; members and viewers 403; a location the actor cannot see 404. */
export async function locationCosts(db: Db, actor: Actor, locationId: string, month: string | undefined): Promise<AiCostSummary> {
  return withActor(db, personOnly(actor), async (tx) => {
    const { role } = await locationAccess(tx, locationId);
    requireRole(role, "admin", `Your role (${role}) cannot see AI costs here; ask an owner or admin.`, { role, needed: "admin" });
    return costSummary(tx, locationId, month ?? monthOf(new Date()));
  });
}
