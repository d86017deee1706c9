/** The paying side's pure parts: sealed API keys, cost estimates, price_table_later, months, SVC_AI_MONTHLY_BUDGET. */
import { describe, expect, test } from "vitest";
import { estimateCost, IMAGE_TOKENS, laterOrUnknown, monthOf, nextMonthStart, PROMPT_TOKENS } from "../../server/ai/budget.js";
import { openApiKey, sealApiKey, type KeyOwner } from "../../server/ai/keys.js";
import { priceFromTable } from "../../server/ai/prices.js";
import { loadConfig } from "../../server/config.js";
import { SecretBox } from "../../server/db/secret-box.js";
import type { AiCallRecord } from "../../shared/ai.js";

const box = new SecretBox("s".repeat(40));
const KEY = "sk-entered-SECRET-7781";
const row: KeyOwner = {
  settingsId: "0190a000-0000-7000-8000-000000000001",
  accountId: "0190a000-0000-7000-8000-0000000000aa",
  providerKind: "provider_a",
  baseUrl: null,
};

describe("sealed API keys", () => {
  test("sealed, not in clear; opens for its row with the same secret", () => {
    const sealed = sealApiKey(row, KEY, box);
    expect(sealed).not.toContain(KEY);
    expect(Buffer.from(sealed, "base64").toString("latin1")).not.toContain(KEY);
    expect(openApiKey(row, sealed, box)).toBe(KEY);
    expect(sealApiKey(row, KEY, box)).not.toBe(sealed); // a fresh IV each time
  });

  test.each<[string, Partial<KeyOwner>]>([
    ["another row", { settingsId: "0190a000-0000-7000-8000-000000000002" }],
    ["another account", { accountId: "0190a000-0000-7000-8000-0000000000bb" }],
    ["another provider kind", { providerKind: "router" }],
    ["another base URL", { baseUrl: "https://elsewhere.example.org/v1" }],
  ])("does not open for %s", (_, change) => {
    const sealed = sealApiKey(row, KEY, box);
    expect(openApiKey({ ...row, ...change }, sealed, box)).toBeNull();
  });

  test("does not open under another server secret, nor when tampered with", () => {
    const sealed = sealApiKey(row, KEY, box);
    expect(openApiKey(row, sealed, new SecretBox("t".repeat(40)))).toBeNull();
    const raw = Buffer.from(sealed, "base64");
    raw[14] = raw[14]! ^ 1;
    expect(openApiKey(row, raw.toString("base64"), box)).toBeNull();
    expect(openApiKey(row, "short", box)).toBeNull();
  });
});

describe("estimates", () => {
  test("an upper bound from the table: prompt and images in, the whole output allowance out", () => {
    const est = estimateCost({ kind: "provider_b", model: "claude-sonnet-4-5" }, 2, 4096);
    expect(est).toEqual(priceFromTable("provider_b", "claude-sonnet-4-5", { input: PROMPT_TOKENS + 2 * IMAGE_TOKENS.provider_b, output: 4096 }));
    // 6200 x 3 / 1M + 4096 x 15 / 1M
    expect(est).toEqual({ amount: "0.08004", currency: "USD" });
  });

  test("more images cost more; a model that bills images at a multiple is estimated so", () => {
    const one = estimateCost({ kind: "provider_a", model: "gpt-4o" }, 1, 1000)!;
    const three = estimateCost({ kind: "provider_a", model: "gpt-4o" }, 3, 1000)!;
    expect(Number(three.amount)).toBeGreaterThan(Number(one.amount));
    const mini = estimateCost({ kind: "provider_a", model: "gpt-4o-mini" }, 1, 0)!;
    expect(mini).toEqual(priceFromTable("provider_a", "gpt-4o-mini", { input: PROMPT_TOKENS + 48_169, output: 0 }));
  });

  test("null when the table does not know the model, and always for compatible_api", () => {
    expect(estimateCost({ kind: "provider_a", model: "gpt-9" }, 1, 1000)).toBeNull();
    expect(estimateCost({ kind: "compatible_api", model: "llava", baseUrl: "http://x/v1" }, 1, 1000)).toBeNull();
  });
});

describe("price_table_later", () => {
  const rec = (over: Partial<AiCallRecord>): AiCallRecord => ({
    model: "gpt-9",
    providerKind: "provider_a",
    tokens: 1200,
    images: 1,
    costSource: "unknown",
    paidBy: { scope: "instance", label: "Instance", mine: false },
    outcome: "ok",
    errorCode: null,
    ...over,
  });

  test("an unknown cost of a kind we price, with tokens used, waits for the table", () => {
    expect(laterOrUnknown(rec({})).costSource).toBe("price_table_later");
    expect(laterOrUnknown(rec({ providerKind: "router", outcome: "truncated" })).costSource).toBe("price_table_later");
  });

  test.each<[string, Partial<AiCallRecord>]>([
    ["a compatible_api server (no price, ever)", { providerKind: "compatible_api" }],
    ["a call that used no tokens", { tokens: 0, outcome: "provider_error" }],
    ["a known cost", { costSource: "price_table", cost: { amount: "0.01", currency: "USD" } }],
    ["a reported cost", { costSource: "provider", cost: { amount: "0.01", currency: "USD" } }],
    ["a call not sent", { costSource: "not_sent", tokens: 0 }],
  ])("stays as it is: %s", (_, over) => {
    expect(laterOrUnknown(rec(over))).toEqual(rec(over));
  });
});

describe("months (UTC)", () => {
  test("month of an instant and the start of the next", () => {
    expect(monthOf(new Date("2026-03-31T23:30:00-02:00"))).toBe("2026-04");
    expect(nextMonthStart(new Date("2026-12-31T23:59:59.999Z")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
    expect(nextMonthStart(new Date("2026-01-31T12:00:00Z")).toISOString()).toBe("2026-02-01T00:00:00.000Z");
  });
});

describe("SVC_AI_MONTHLY_BUDGET", () => {
  const load = (env: Record<string, string>) => loadConfig(env, { secret: "x".repeat(32) });
  const ai = { SVC_AI_PROVIDER: "provider_a", SVC_AI_MODEL: "gpt-4o", SVC_AI_API_KEY: "k" };

  test("a decimal amount in USD", () => {
    expect(load({ ...ai, SVC_AI_MONTHLY_BUDGET: "12.50" }).ai?.monthlyBudget).toEqual({ amount: "12.50", currency: "USD" });
    expect(load(ai).ai?.monthlyBudget).toBeUndefined();
  });

  test.each([["-5"], ["12,50"], ["1e3"], ["abc"], ["1.1234567"]])("refused: %s", (v) => {
    expect(() => load({ ...ai, SVC_AI_MONTHLY_BUDGET: v })).toThrow(/SVC_AI_MONTHLY_BUDGET/);
  });

  test("needs SVC_AI_PROVIDER", () => {
    expect(() => load({ SVC_AI_MONTHLY_BUDGET: "10" })).toThrow(/SVC_AI_PROVIDER/);
  });
});
