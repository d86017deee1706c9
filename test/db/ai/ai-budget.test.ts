/**
 * Monthly AI budgets (server/ai/budget.ts): estimates reserved under a row lock so parallel
 * extractions cannot all pass one check, settled with the real cost, refused over budget until the
 * next month (UTC); and the job that costs `price_table_later` calls once the table knows their
 * model. On PostgreSQL the parallel reservations really run at once (a pool of connections).
 */
import { Decimal } from "decimal.js";
import { v7 as uuidv7 } from "uuid";
import { describe, expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import type { AiCost } from "../../../shared/ai.js";
import { releaseBudget, reserveBudget, settleBudget } from "../../../server/ai/budget.js";
import { costLaterCalls } from "../../../server/ai/later-costs.js";
import type { Payer, Reservation } from "../../../server/ai/paying.js";
import { PRICE_TABLE, type PriceTable } from "../../../server/ai/prices.js";
import { rows, sql, type Database } from "../../../server/db/client.js";

let database: Database;

test.beforeAll(async ({ svc }) => {
  database = svc.database;
});

const usd = (amount: string): AiCost => ({ amount, currency: "USD" });

function payer(budget: string | null): Payer {
  const key = `user:${uuidv7()}`;
  return {
    provider: { kind: "provider_a", model: "gpt-4o", apiKey: "k" },
    paidBy: { scope: "user", label: "Test", mine: false },
    payerKey: key,
    userId: key.slice(5),
    accountId: null,
    budget: budget === null ? null : usd(budget),
    guarded: false,
    key: null,
  };
}

async function month(payerKey: string, m: string) {
  const [row] = await rows<{ spent: string; reserved: string; currency: string }>(
    database.db,
    sql`SELECT spent::text AS spent, reserved::text AS reserved, currency FROM ai_budget_months WHERE payer_key = ${payerKey} AND month = ${m}`,
  );
  return row ? { spent: new Decimal(row.spent).toFixed(), reserved: new Decimal(row.reserved).toFixed(), currency: row.currency } : null;
}

const settle = (r: Reservation, actual: AiCost | null) => database.db.transaction((tx) => settleBudget(tx, r, actual));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const JAN = new Date("2026-01-15T10:00:00Z");

describe("budgets under concurrency", () => {
  test("12 parallel reserve -> call -> settle sequences never spend past the budget", async () => {
    const p = payer("0.05");
    const estimate = usd("0.01");
    const results = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const r = await reserveBudget(database.db, p, estimate, JAN);
        if (!r.ok) return false;
        await pause(5 + (i % 4) * 5); // the call
        await settle(r.reservation, estimate);
        return true;
      }),
    );
    expect(results.filter(Boolean)).toHaveLength(5);
    expect(await month(p.payerKey, "2026-01")).toEqual({ spent: "0.05", reserved: "0", currency: "USD" });
  });

  test("calls costing less than their estimate leave room for more, and still never pass the budget", async () => {
    const p = payer("0.05");
    const estimate = usd("0.01");
    let calls = 0;
    // Each worker calls until it is refused: the room a cheap call leaves is taken by the next.
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        for (;;) {
          const r = await reserveBudget(database.db, p, estimate, JAN);
          if (!r.ok) return;
          calls++;
          await pause(2 + (i % 3) * 4);
          await settle(r.reservation, usd("0.005"));
        }
      }),
    );
    const after = (await month(p.payerKey, "2026-01"))!;
    expect(new Decimal(after.spent).lessThanOrEqualTo("0.05")).toBe(true);
    expect(after.spent).toBe(new Decimal("0.005").times(calls).toFixed());
    expect(after.reserved).toBe("0");
    expect(calls).toBeGreaterThan(5);
  });
});

describe("reserving and settling", () => {
  test("over budget: refused until the first instant of the next month (UTC), December into January", async () => {
    const p = payer("0.02");
    const r = await reserveBudget(database.db, p, usd("0.02"), JAN);
    expect(r.ok).toBe(true);
    if (r.ok) await settle(r.reservation, usd("0.02"));
    expect(await reserveBudget(database.db, p, usd("0.001"), JAN)).toEqual({ ok: false, pausedUntil: new Date("2026-02-01T00:00:00Z") });
    const dec = payer("0");
    expect(await reserveBudget(database.db, dec, usd("0.001"), new Date("2026-12-31T23:59:59.999Z"))).toEqual({
      ok: false,
      pausedUntil: new Date("2027-01-01T00:00:00Z"),
    });
  });

  test("month rollover: a new month starts from nothing; a call reserved in January settles in January", async () => {
    const p = payer("0.01");
    const late = await reserveBudget(database.db, p, usd("0.01"), new Date("2026-01-31T23:59:59Z"));
    expect(late.ok).toBe(true);
    expect((await reserveBudget(database.db, p, usd("0.01"), new Date("2026-01-31T23:59:59.5Z"))).ok).toBe(false);
    const feb = await reserveBudget(database.db, p, usd("0.01"), new Date("2026-02-01T00:00:00Z"));
    expect(feb.ok && feb.reservation.month).toBe("2026-02");
    if (late.ok) await settle(late.reservation, usd("0.008"));
    expect(await month(p.payerKey, "2026-01")).toMatchObject({ spent: "0.008", reserved: "0" });
    expect(await month(p.payerKey, "2026-02")).toMatchObject({ spent: "0", reserved: "0.01" });
  });

  test("no budget: every call goes, and spend is still counted", async () => {
    const p = payer(null);
    for (let i = 0; i < 3; i++) {
      const r = await reserveBudget(database.db, p, usd("1"), JAN);
      expect(r.ok).toBe(true);
      if (r.ok) await settle(r.reservation, usd("0.75"));
    }
    expect(await month(p.payerKey, "2026-01")).toMatchObject({ spent: "2.25", reserved: "0" });
  });

  test("without an estimate: nothing is reserved, and calls go until spent reaches the budget", async () => {
    const p = payer("0.01");
    const first = await reserveBudget(database.db, p, null, JAN);
    expect(first).toMatchObject({ ok: true, reservation: { amount: "0", currency: "USD" } });
    if (first.ok) await settle(first.reservation, usd("0.004"));
    const second = await reserveBudget(database.db, p, null, JAN);
    expect(second.ok).toBe(true);
    if (second.ok) await settle(second.reservation, usd("0.006"));
    expect((await reserveBudget(database.db, p, null, JAN)).ok).toBe(false);
  });

  test("an estimate in another currency than the budget's counts as unknown; so does a cost", async () => {
    const p = payer("0.01");
    const r = await reserveBudget(database.db, p, { amount: "5", currency: "EUR" }, JAN);
    expect(r).toMatchObject({ ok: true, reservation: { amount: "0", currency: "USD" } });
    if (r.ok) await settle(r.reservation, { amount: "5", currency: "EUR" });
    expect(await month(p.payerKey, "2026-01")).toMatchObject({ spent: "0", reserved: "0", currency: "USD" });
  });

  test("a reservation given back (the call was never sent) frees its estimate", async () => {
    const p = payer("0.01");
    const r = await reserveBudget(database.db, p, usd("0.01"), JAN);
    expect((await reserveBudget(database.db, p, usd("0.01"), JAN)).ok).toBe(false);
    if (r.ok) await releaseBudget(database.db, r.reservation);
    expect(await month(p.payerKey, "2026-01")).toMatchObject({ spent: "0", reserved: "0" });
    expect((await reserveBudget(database.db, p, usd("0.01"), JAN)).ok).toBe(true);
  });
});

describe("price_table_later", () => {
  const withModel: PriceTable = {
    ...PRICE_TABLE,
    models: { ...PRICE_TABLE.models, provider_b: { ...PRICE_TABLE.models.provider_b, "claude-next": { input: "2.00", output: "10.00" } } },
  };

  async function call(locationId: string, payerKey: string, model: string, costSource: string) {
    const id = uuidv7();
    await database.db.execute(sql`INSERT INTO ai_calls (id, location_id, task, model, provider_kind, tokens_in, tokens_out, tokens, images, cost_source,
                                    paid_by_scope, paid_by_label, payer_key, outcome, month)
                                  VALUES (${id}, ${locationId}, 'extract_thing', ${model}, 'provider_b', 1000, 500, 1500, 1, ${costSource},
                                    'user', 'Test', ${payerKey}, 'ok', '2026-01')`);
    return id;
  }
  const callRow = async (id: string) =>
    (
      await rows<{ cost_source: string; cost_amount: string | null; cost_currency: string | null }>(
        database.db,
        sql`SELECT cost_source, cost_amount::text AS cost_amount, cost_currency FROM ai_calls WHERE id = ${id}`,
      )
    )[0]!;

  test("calls of a model the table now knows are costed once, and their payer's month spends it", async ({ svc }) => {
    const owner = await svc.signedIn("Later Owner");
    const locationId = (await owner.get("/api/v1/me")).body.locations[0].id as string;
    const p = payer("1");
    const r = await reserveBudget(database.db, p, usd("0.1"), JAN);
    if (r.ok) await settle(r.reservation, usd("0.1"));
    const later = await call(locationId, p.payerKey, "claude-next", "price_table_later");
    const stillUnknown = await call(locationId, p.payerKey, "claude-after-next", "price_table_later");
    const unknown = await call(locationId, p.payerKey, "claude-next", "unknown");

    expect(await costLaterCalls(database.db)).toBe(0);
    expect(await costLaterCalls(database.db, withModel)).toBe(1);
    // 1000 x 2.00 / 1M + 500 x 10.00 / 1M
    expect(await callRow(later)).toEqual({ cost_source: "price_table", cost_amount: "0.00700000", cost_currency: "USD" });
    expect((await callRow(stillUnknown)).cost_source).toBe("price_table_later");
    expect((await callRow(unknown)).cost_source).toBe("unknown");
    expect(await month(p.payerKey, "2026-01")).toMatchObject({ spent: "0.107", reserved: "0" });

    expect(await costLaterCalls(database.db, withModel)).toBe(0);
    expect(await month(p.payerKey, "2026-01")).toMatchObject({ spent: "0.107" });
  });
});
