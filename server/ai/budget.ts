/**
 * Monthly budgets per payer (ai_budget_months, one row per payer key and UTC month). Before a call
 * is sent its estimate is reserved under a row lock (SELECT ... FOR UPDATE), so parallel
 * extractions queue on the row and cannot all pass the same check: spent + reserved + estimate
 * must stay within the budget. When the call ends, settleBudget (in the transaction that records
 * the call) drops the reservation and adds the real cost to `spent`; a call never sent gives its
 * reservation back (releaseBudget). As long as estimates are upper bounds (the per-image figures
 * below are chosen to be), spent never passes the budget; a call that costs more than its estimate
 * takes the payer past it by what its estimate missed, and the next call is refused.
 *
 * Without an estimate (the table does not know the model, or it prices in another currency than
 * the budget's) nothing can be reserved: the call goes out while spent + reserved is still below the
 * budget, and is refused once it is not. Parallel calls of such a model may all go out together;
 * their costs are mostly unknown as well (only OpenRouter reports its own), so a budget can hold
 * back little more for them. Amounts never cross currencies: a budget whose currency is
 * not the month row's (it changed after spending began) cannot be checked and refuses, failing
 * closed; a cost in another currency than the row's is left out of `spent` (its call keeps it).
 */
import { Decimal } from "decimal.js";
import type { AiCallRecord, AiCost, ProviderKind } from "../../shared/ai.js";
import { asSystem } from "../db/actor.js";
import { rows, sql, type Db, type Queryable } from "../db/client.js";
import type { Payer, Reservation, Reserved } from "./paying.js";
import { decimalString, PRICE_TABLE, priceFromTable, type PriceTable } from "./prices.js";
import type { ProviderSettings } from "./providers.js";

/** The prompt, the system text and the JSON schema of a thing type's fields: generous for a type with many fields. */
export const PROMPT_TOKENS = 3_000;

/**
 * Input tokens one image may cost at most, per provider kind, for a photo as phones take them
 * (the providers scale it down first):
 * - provider_a (gpt-4o, gpt-4.1): high detail, at most 2048x768 after scaling, 8 tiles: 85 + 170 x 8.
 * - provider_b: Claude scales to about 1.15 megapixels, (w x h) / 750, about 1,600.
 * - provider_c: Gemini 2.5 counts 258 per 768x768 tile; 6 tiles covers a 4:3 photo.
 * - provider_d: Pixtral, 16x16 patches of a 1024x1024 image plus one break per row: 64 x 65.
 * - router: as the largest of the models it routes to that we price (Claude's).
 * Some models count images at a multiple (IMAGE_TOKENS_BY_MODEL).
 */
export const IMAGE_TOKENS: Record<Exclude<ProviderKind, "compatible_api">, number> = {
  provider_a: 1_445,
  provider_b: 1_600,
  provider_c: 1_548,
  provider_d: 4_160,
  router: 1_600,
};

/** gpt-4o-mini bills an image's tiles at about 33 times gpt-4o's count (2,833 + 5,667 x 8); the patch-based minis at 1.62 x 1,536 patches. */
const IMAGE_TOKENS_BY_MODEL: Record<string, number> = {
  "gpt-4o-mini": 48_169,
  "openai/gpt-4o-mini": 48_169,
  "gpt-4.1-mini": 2_489,
  "gpt-5-mini": 2_489,
};

/** An upper bound of one call's cost from the price table; null when the table does not know the model. */
export function estimateCost(provider: ProviderSettings, images: number, maxOutputTokens: number, table: PriceTable = PRICE_TABLE): AiCost | null {
  if (provider.kind === "compatible_api") return null;
  const perImage = IMAGE_TOKENS_BY_MODEL[provider.model] ?? IMAGE_TOKENS[provider.kind];
  return priceFromTable(provider.kind, provider.model, { input: PROMPT_TOKENS + images * perImage, output: maxOutputTokens }, table);
}

/** `YYYY-MM` of an instant, in UTC. */
export const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/** The first instant of the month after the one `at` is in (UTC): when a paused payer may spend again. */
export const nextMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

interface MonthRow {
  currency: string;
  spent: string;
  reserved: string;
}

export async function reserveBudget(db: Db, payer: Payer, estimate: AiCost | null, now: Date): Promise<Reserved> {
  const month = monthOf(now);
  return asSystem(db, async (tx) => {
    const currency = payer.budget?.currency ?? estimate?.currency ?? PRICE_TABLE.currency;
    await tx.execute(sql`INSERT INTO ai_budget_months (payer_key, month, currency) VALUES (${payer.payerKey}, ${month}, ${currency})
                         ON CONFLICT (payer_key, month) DO NOTHING`);
    const [row] = await rows<MonthRow>(
      tx,
      sql`SELECT currency, spent::text AS spent, reserved::text AS reserved FROM ai_budget_months
          WHERE payer_key = ${payer.payerKey} AND month = ${month} FOR UPDATE`,
    );
    const held = new Decimal(row!.spent).plus(row!.reserved);
    const amount = estimate && estimate.currency === row!.currency ? new Decimal(estimate.amount) : null;
    if (payer.budget) {
      const refuse =
        payer.budget.currency !== row!.currency ||
        (amount ? held.plus(amount).greaterThan(payer.budget.amount) : held.greaterThanOrEqualTo(payer.budget.amount));
      if (refuse) return { ok: false as const, pausedUntil: nextMonthStart(now) };
    }
    const reserved = decimalString(amount ?? new Decimal(0));
    if (amount && !amount.isZero()) {
      await tx.execute(sql`UPDATE ai_budget_months SET reserved = reserved + ${reserved}::numeric
                           WHERE payer_key = ${payer.payerKey} AND month = ${month}`);
    }
    return { ok: true as const, reservation: { payerKey: payer.payerKey, month, currency: row!.currency, amount: reserved } };
  });
}

/**
 * Ends a reservation with the call's real cost: the estimate leaves `reserved`, the cost (when
 * known and in the month row's currency) joins `spent`. Run it in the transaction that records
 * the call, so the record and the spend commit together. The call belongs to the reservation's
 * month, even if it ended in the next.
 */
export async function settleBudget(tx: Queryable, reservation: Reservation, actual: AiCost | null): Promise<void> {
  const cost = actual && actual.currency === reservation.currency ? actual.amount : "0";
  await tx.execute(sql`UPDATE ai_budget_months
                       SET reserved = GREATEST(reserved - ${reservation.amount}::numeric, 0), spent = spent + ${cost}::numeric
                       WHERE payer_key = ${reservation.payerKey} AND month = ${reservation.month}`);
}

/** Gives a reservation back: its call was never sent. */
export async function releaseBudget(db: Queryable, reservation: Reservation): Promise<void> {
  await settleBudget(db, reservation, null);
}

/** The kinds the price table prices (compatible_api is a server of one's own: no price, ever). */
export const priced = (kind: ProviderKind) => kind !== "compatible_api";

/**
 * A call whose cost is unknown only because the table does not know its model yet becomes
 * `price_table_later`: the hourly job (later-costs.ts) costs it once a newer table does. A call
 * that used no tokens (it failed before any were counted) has nothing to cost later.
 */
export function laterOrUnknown(record: AiCallRecord): AiCallRecord {
  if (record.costSource !== "unknown" || !priced(record.providerKind) || record.tokens === 0) return record;
  return { ...record, costSource: "price_table_later" };
}
