/**
 * The hourly job that costs `price_table_later` calls once the price table knows their model (a
 * newer table shipped with an upgrade): each gets its cost from its own input and output tokens,
 * cost source `price_table`, and its payer's month spends it. Calls whose model the table still
 * does not know wait for the next run. Rows are claimed with SKIP LOCKED, so replicas running the
 * job at once never cost a call twice.
 */
import type { ProviderKind } from "../../shared/ai.js";
import { asSystem } from "../db/actor.js";
import { rows, sql, type Db } from "../db/client.js";
import { PRICE_TABLE, priceFromTable, type PriceTable } from "./prices.js";

/** Calls per transaction; a run goes on until a batch costs nothing more. */
const BATCH = 200;

interface LaterCall {
  id: string;
  provider_kind: ProviderKind;
  model: string;
  tokens_in: number;
  tokens_out: number;
  payer_key: string;
  month: string;
}

async function costBatch(db: Db, table: PriceTable, after: string): Promise<{ costed: number; last: string | null }> {
  return asSystem(db, async (tx) => {
    const calls = await rows<LaterCall>(
      tx,
      sql`SELECT id, provider_kind, model, tokens_in, tokens_out, payer_key, month FROM ai_calls
          WHERE cost_source = 'price_table_later' AND id > ${after}::uuid
          ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
    );
    let costed = 0;
    for (const call of calls) {
      const cost = priceFromTable(call.provider_kind, call.model, { input: call.tokens_in, output: call.tokens_out }, table);
      if (!cost) continue;
      await tx.execute(sql`UPDATE ai_calls SET cost_amount = ${cost.amount}::numeric, cost_currency = ${cost.currency}, cost_source = 'price_table'
                           WHERE id = ${call.id}`);
      // A month row in another currency cannot add this cost (no conversions); the call keeps it.
      await tx.execute(sql`INSERT INTO ai_budget_months (payer_key, month, currency, spent)
                           VALUES (${call.payer_key}, ${call.month}, ${cost.currency}, ${cost.amount}::numeric)
                           ON CONFLICT (payer_key, month) DO UPDATE SET spent = ai_budget_months.spent + EXCLUDED.spent
                           WHERE ai_budget_months.currency = EXCLUDED.currency`);
      costed++;
    }
    return { costed, last: calls.at(-1)?.id ?? null };
  });
}

/** Costs what the table now can; answers how many calls it costed. */
export async function costLaterCalls(db: Db, table: PriceTable = PRICE_TABLE): Promise<number> {
  let total = 0;
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const { costed, last } = await costBatch(db, table, after);
    total += costed;
    if (!last) return total;
    after = last;
  }
}
