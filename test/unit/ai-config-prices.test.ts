/** SVC_AI_* validation, instanceProvider, and the price table's decimal arithmetic. */
import { describe, expect, test } from "vitest";
import { instanceProvider } from "../../server/ai/instance.js";
import { PRICE_TABLE, priceFromTable, reportedCost } from "../../server/ai/prices.js";
import { loadConfig } from "../../server/config.js";
import { PROVIDER_KINDS } from "../../shared/ai.js";

const load = (env: Record<string, string>) => loadConfig(env, { secret: "x".repeat(32) });

describe("SVC_AI_* configuration", () => {
  test("unset: no instance provider", () => {
    expect(instanceProvider(load({}))).toBeNull();
  });

  test.each(PROVIDER_KINDS)("%s is accepted with what it needs", (kind) => {
    const env = { SVC_AI_PROVIDER: kind, SVC_AI_MODEL: "m-1", SVC_AI_API_KEY: "k", SVC_AI_BASE_URL: "https://llm.example.org/v1" };
    expect(instanceProvider(load(env))).toEqual({ kind, model: "m-1", apiKey: "k", baseUrl: "https://llm.example.org/v1" });
  });

  test("compatible_api may go without a key, not without a base URL", () => {
    expect(instanceProvider(load({ SVC_AI_PROVIDER: "compatible_api", SVC_AI_MODEL: "llava", SVC_AI_BASE_URL: "http://ollama:11434/v1" }))).toEqual({
      kind: "compatible_api",
      model: "llava",
      apiKey: undefined,
      baseUrl: "http://ollama:11434/v1",
    });
    expect(() => load({ SVC_AI_PROVIDER: "compatible_api", SVC_AI_MODEL: "llava" })).toThrow(/SVC_AI_BASE_URL/);
  });

  test.each([
    [{ SVC_AI_PROVIDER: "openai", SVC_AI_MODEL: "m", SVC_AI_API_KEY: "k" }, /SVC_AI_PROVIDER/],
    [{ SVC_AI_PROVIDER: "provider_a", SVC_AI_API_KEY: "k" }, /SVC_AI_MODEL/],
    [{ SVC_AI_PROVIDER: "provider_b", SVC_AI_MODEL: "m" }, /SVC_AI_API_KEY/],
    [{ SVC_AI_MODEL: "m", SVC_AI_API_KEY: "k" }, /SVC_AI_PROVIDER: needed/],
    [{ SVC_AI_PROVIDER: "router", SVC_AI_MODEL: "m", SVC_AI_API_KEY: "k", SVC_AI_BASE_URL: "ftp://x/y" }, /SVC_AI_BASE_URL/],
  ])("refused: %o", (env, message) => {
    expect(() => load(env)).toThrow(message);
  });

  test("the key is not in the error that names a missing variable", () => {
    expect(() => load({ SVC_AI_PROVIDER: "provider_a", SVC_AI_API_KEY: "sk-secret-123" })).toThrow(
      expect.not.objectContaining({ message: expect.stringContaining("sk-secret-123") }),
    );
  });
});

describe("price table", () => {
  test("dated, and every price a plain decimal string", () => {
    expect(PRICE_TABLE.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const models of Object.values(PRICE_TABLE.models))
      for (const p of Object.values(models)) expect([p.input, p.output].join(" ")).toMatch(/^\d+\.\d+ \d+\.\d+$/);
  });

  test("decimal arithmetic: sums floats would get wrong come out exact", () => {
    // 0.1 + 0.2 in floats is 0.30000000000000004; per million tokens the table must still say 0.3.
    const table = { asOf: "2025-01-01", currency: "USD", models: { provider_d: { m: { input: "0.1", output: "0.2" } } } };
    expect(priceFromTable("provider_d", "m", { input: 1_000_000, output: 1_000_000 }, table)).toEqual({ amount: "0.3", currency: "USD" });
    expect(priceFromTable("provider_a", "gpt-4o", { input: 3, output: 1 })).toEqual({ amount: "0.0000175", currency: "USD" });
    expect(priceFromTable("provider_a", "no-such-model", { input: 3, output: 1 })).toBeNull();
  });

  test("a reported cost is kept as its shortest decimal, never in exponent form", () => {
    expect(reportedCost(1e-7, "USD")).toEqual({ amount: "0.0000001", currency: "USD" });
    expect(reportedCost(0.0002313, "USD")).toEqual({ amount: "0.0002313", currency: "USD" });
    expect(reportedCost(-1, "USD")).toBeNull();
    expect(reportedCost("0.1", "USD")).toBeNull();
  });
});
