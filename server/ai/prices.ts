/**
 * The shipped price table: list prices per million tokens for a few models of each provider kind,
 * as the providers published them on `asOf`. A call whose provider does not report its cost is
 * costed from here (costSource `price_table`); a model not in the table stays `unknown`. Prices
 * change: the date says how old a figure is, and a newer table replaces this file.
 * Arithmetic in decimal.js, never in floats.
 */
import { Decimal } from "decimal.js";
import type { AiCost, ProviderKind } from "../../shared/ai.js";

export interface ModelPrice {
  /** Per million input (prompt) tokens, images included as the provider counts them. */
  input: string;
  /** Per million output (completion) tokens. */
  output: string;
}

export interface PriceTable {
  asOf: string;
  currency: string;
  models: Partial<Record<ProviderKind, Record<string, ModelPrice>>>;
}

export const PRICE_TABLE: PriceTable = {
  asOf: "2025-10-01",
  currency: "USD",
  models: {
    provider_a: {
      "gpt-4o": { input: "2.50", output: "10.00" },
      "gpt-4o-mini": { input: "0.15", output: "0.60" },
      "gpt-4.1": { input: "2.00", output: "8.00" },
      "gpt-4.1-mini": { input: "0.40", output: "1.60" },
      "gpt-5-mini": { input: "0.25", output: "2.00" },
    },
    provider_b: {
      "claude-sonnet-4-5": { input: "3.00", output: "15.00" },
      "claude-haiku-4-5": { input: "1.00", output: "5.00" },
      "claude-opus-4-1": { input: "15.00", output: "75.00" },
    },
    provider_c: {
      "gemini-2.5-flash": { input: "0.30", output: "2.50" },
      "gemini-2.5-flash-lite": { input: "0.10", output: "0.40" },
      // Prompts up to 200k tokens; an extraction prompt never comes near that.
      "gemini-2.5-pro": { input: "1.25", output: "10.00" },
    },
    provider_d: {
      "mistral-small-latest": { input: "0.10", output: "0.30" },
      "mistral-medium-latest": { input: "0.40", output: "2.00" },
      "pixtral-large-latest": { input: "2.00", output: "6.00" },
    },
    // OpenRouter reports each call's cost; these cover an answer that came without it.
    router: {
      "openai/gpt-4o-mini": { input: "0.15", output: "0.60" },
      "anthropic/claude-sonnet-4.5": { input: "3.00", output: "15.00" },
      "google/gemini-2.5-flash": { input: "0.30", output: "2.50" },
    },
    // compatible_api: a server we know nothing about (often one's own); no price.
  },
};

const MILLION = new Decimal(1_000_000);
/** Enough places for a single small call (a few hundred tokens of a cheap model) to stay above zero. */
const PLACES = 8;

/** Amount as a plain decimal string: no exponent, no trailing zeros. */
export function decimalString(d: Decimal): string {
  const fixed = d.toDecimalPlaces(PLACES, Decimal.ROUND_HALF_UP).toFixed();
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/** The table's cost of a call, or null when the table does not know the model. */
export function priceFromTable(kind: ProviderKind, model: string, tokens: { input: number; output: number }, table: PriceTable = PRICE_TABLE): AiCost | null {
  const price = table.models[kind]?.[model];
  if (!price) return null;
  const amount = new Decimal(tokens.input).times(price.input).plus(new Decimal(tokens.output).times(price.output)).dividedBy(MILLION);
  return { amount: decimalString(amount), currency: table.currency };
}

/** A provider's reported cost (a JSON number, so already a float): read through its shortest decimal text. */
export function reportedCost(value: unknown, currency: string): AiCost | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return null;
  return { amount: decimalString(new Decimal(String(value))), currency };
}
