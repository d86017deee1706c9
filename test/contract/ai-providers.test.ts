/**
 * The AI call layer (server/ai/) with the real AI SDK provider packages against in-process stand-ins
 * that speak each provider's wire format (test/support/ai-standins). Every provider kind answers,
 * refuses, runs out of tokens, answers off-schema, is rate limited, fails and hangs; each call
 * must come back as an AI call record (spec "AI call record"), never as a thrown error, and the
 * API key must reach the stand-in in the provider's header and nowhere else.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { aiCallRecordSchema, type PaidBy, type ProviderKind } from "../../shared/ai.js";
import { extractStructured, type ExtractResult } from "../../server/ai/extract.js";
import { answerSchema, askedFields, promptFor, readAnswer, SYSTEM_PROMPT } from "../../server/modules/extractions/answer.js";
import { anthropicFormat } from "../support/ai-standins/anthropic.js";
import { compatibleFormat, mistralFormat, openrouterFormat } from "../support/ai-standins/chat-completions.js";
import { geminiFormat } from "../support/ai-standins/gemini.js";
import { openaiFormat } from "../support/ai-standins/openai.js";
import { startStandin, type Standin, type WireFormat } from "../support/ai-standins/server.js";

const KEY = "sk-standin-7f3a9c2e-SECRET-0b1d";
const paidBy: PaidBy = { scope: "instance", label: "This server", mine: false };
const schema = z.object({ brand: z.string().nullable(), model: z.string().nullable(), serial: z.string().nullable() });
const drill = { brand: "Bosch", model: "GSR 18V-55", serial: "SN-0042" };
// A real 1x1 PNG, so the bytes that arrive can be compared with the bytes sent.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

interface Kind {
  kind: ProviderKind;
  model: string;
  format: () => WireFormat;
  /** The cost of USAGE (1200 in, 80 out) worked out by hand from the price table, or the router's report. */
  cost: { amount: string; currency: string } | undefined;
  costSource: "provider" | "price_table" | "unknown";
  refuses: boolean;
}

const KINDS: Kind[] = [
  // 1200 x 0.15 + 80 x 0.60 = 228 per million
  { kind: "provider_a", model: "gpt-4o-mini", format: openaiFormat, cost: { amount: "0.000228", currency: "USD" }, costSource: "price_table", refuses: true },
  // 1200 x 3 + 80 x 15 = 4800 per million (native structured outputs: output_config.format)
  {
    kind: "provider_b",
    model: "claude-sonnet-4-5",
    format: anthropicFormat,
    cost: { amount: "0.0048", currency: "USD" },
    costSource: "price_table",
    refuses: true,
  },
  // 1200 x 0.30 + 80 x 2.50 = 560 per million
  {
    kind: "provider_c",
    model: "gemini-2.5-flash",
    format: geminiFormat,
    cost: { amount: "0.00056", currency: "USD" },
    costSource: "price_table",
    refuses: true,
  },
  // 1200 x 0.10 + 80 x 0.30 = 144 per million; Mistral's wire format has no refusal
  {
    kind: "provider_d",
    model: "mistral-small-latest",
    format: mistralFormat,
    cost: { amount: "0.000144", currency: "USD" },
    costSource: "price_table",
    refuses: false,
  },
  // OpenRouter's own figure wins over the table (which would say 0.000228)
  {
    kind: "router",
    model: "openai/gpt-4o-mini",
    format: () => openrouterFormat(0.0002313),
    cost: { amount: "0.0002313", currency: "USD" },
    costSource: "provider",
    refuses: true,
  },
  { kind: "compatible_api", model: "llama3.2-vision", format: compatibleFormat, cost: undefined, costSource: "unknown", refuses: true },
];

const standins = new Map<ProviderKind, Standin>();
beforeAll(async () => {
  for (const k of KINDS) standins.set(k.kind, await startStandin(k.format()));
});
afterAll(async () => {
  for (const s of standins.values()) await s.close();
});

async function call(k: Kind, opts: { timeoutMs?: number; signal?: AbortSignal; model?: string } = {}): Promise<ExtractResult<z.infer<typeof schema>>> {
  const standin = standins.get(k.kind)!;
  const result = await extractStructured({
    provider: { kind: k.kind, model: opts.model ?? k.model, apiKey: KEY, baseUrl: standin.baseUrl },
    paidBy,
    schema,
    prompt: "Read the brand, model and serial number off the label in the photo.",
    images: [{ bytes: new Uint8Array(PNG), mime: "image/png" }],
    timeoutMs: opts.timeoutMs ?? 5_000,
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  // Whatever happened: a valid record, and no key in it or anywhere in what came back.
  expect(aiCallRecordSchema.strict().parse(result.record)).toEqual(result.record);
  expect(JSON.stringify(result)).not.toContain(KEY);
  expect(JSON.stringify(result)).not.toContain("SECRET");
  return result;
}

describe.each(KINDS)("$kind ($model)", (k) => {
  test("ok: the object, tokens, images and cost; the key, the image and the schema reached the stand-in", async () => {
    const standin = standins.get(k.kind)!;
    standin.next({ do: "ok", object: drill });
    const before = standin.received.length;
    const { record, object } = await call(k);
    expect(object).toEqual(drill);
    expect(record).toEqual({
      model: k.model,
      providerKind: k.kind,
      tokens: 1280,
      images: 1,
      ...(k.cost ? { cost: k.cost } : {}),
      costSource: k.costSource,
      paidBy,
      outcome: "ok",
      errorCode: null,
    });
    expect(standin.received.length).toBe(before + 1);
    const got = standin.received.at(-1)!;
    const format = k.format();
    expect(format.keyOf(got.headers)).toBe(KEY);
    expect(format.imagesOf(got.body)).toEqual([{ mime: "image/png", base64: PNG.toString("base64") }]);
    const sent = z.object({ properties: z.record(z.string(), z.unknown()) }).parse(format.schemaOf(got.body));
    expect(Object.keys(sent.properties).sort()).toEqual(["brand", "model", "serial"]);
    // The key travels in its header only, never in the body.
    expect(got.raw).not.toContain(KEY);
  });

  test("the pipeline's own answer schema (nested, nullable, a type's custom fields) goes out as JSON schema and comes back parsed", async () => {
    const standin = standins.get(k.kind)!;
    const fields = askedFields(
      new Map([["voltage", { field: { kind: "number", secret: false, repeatable: false, label: "Voltage", unit: "V", options: null } }]]) as never,
    );
    const none = { value: null, confidence: 0, photo: null };
    const answer = {
      name: { value: "Drill", confidence: 0.9, photo: 1 },
      description: none,
      model: none,
      serial: none,
      colour: none,
      quantity: none,
      custom: { voltage: { value: 18, confidence: 0.7, photo: 1 } },
    };
    standin.next({ do: "ok", object: answer });
    const result = await extractStructured({
      provider: { kind: k.kind, model: k.model, apiKey: KEY, baseUrl: standin.baseUrl },
      paidBy,
      schema: answerSchema(fields),
      prompt: promptFor("Tool", 1),
      system: SYSTEM_PROMPT,
      images: [{ bytes: new Uint8Array(PNG), mime: "image/png" }],
      timeoutMs: 5_000,
    });
    expect(result.record.outcome).toBe("ok");
    expect(readAnswer(fields, result.object as Record<string, unknown>, 1)).toEqual([
      { key: "name", value: "Drill", confidence: 0.9, photo: 0 },
      { key: "fields.voltage", value: 18, confidence: 0.7, photo: 0 },
    ]);
    const sent = JSON.stringify(k.format().schemaOf(standin.received.at(-1)!.body));
    for (const key of ["name", "serial", "quantity", "custom", "voltage"]) expect(sent).toContain(`"${key}"`);
  });

  test.runIf(k.refuses)("refused: the model declines", async () => {
    standins.get(k.kind)!.next({ do: "refuse" });
    const { record, object } = await call(k);
    expect(object).toBeNull();
    expect(record).toMatchObject({ outcome: "refused", errorCode: "content_filter", tokens: 1280, costSource: k.costSource });
  });

  test("truncated: the answer ran out of output tokens", async () => {
    standins.get(k.kind)!.next({ do: "truncate" });
    const { record, object } = await call(k);
    expect(object).toBeNull();
    expect(record).toMatchObject({ outcome: "truncated", errorCode: "max_tokens", tokens: 1280 });
  });

  test("schema_invalid: JSON of the wrong shape, and prose", async () => {
    const standin = standins.get(k.kind)!;
    standin.next({ do: "text", text: JSON.stringify({ brand: 42, model: null }) });
    const wrong = await call(k);
    expect(wrong.object).toBeNull();
    expect(wrong.record).toMatchObject({ outcome: "schema_invalid", errorCode: "schema_mismatch", tokens: 1280, costSource: k.costSource });
    standin.next({ do: "text", text: "It looks like a cordless drill." });
    const prose = await call(k);
    expect(prose.record).toMatchObject({ outcome: "schema_invalid", errorCode: "not_json" });
  });

  test("rate_limited: a 429 with Retry-After, sent once (no retries of our own)", async () => {
    const standin = standins.get(k.kind)!;
    standin.next({ do: "status", status: 429, retryAfter: "7" });
    const before = standin.received.length;
    const result = await call(k);
    expect(result.record).toMatchObject({ outcome: "rate_limited", errorCode: "http_429", tokens: 0 });
    expect(result.retryAfterSeconds).toBe(7);
    expect(standin.received.length).toBe(before + 1);
  });

  test("provider_error: a 5xx", async () => {
    standins.get(k.kind)!.next({ do: "status", status: 503 });
    const { record } = await call(k);
    expect(record).toMatchObject({ outcome: "provider_error", errorCode: "http_503", tokens: 0 });
  });

  test("timeout: the deadline passes while the provider says nothing", async () => {
    standins.get(k.kind)!.next({ do: "hang" });
    const started = Date.now();
    const { record } = await call(k, { timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(record).toMatchObject({ outcome: "timeout", errorCode: "deadline", tokens: 0 });
  });
});

describe("beyond one outcome per kind", () => {
  const kindOf = (kind: ProviderKind) => KINDS.find((k) => k.kind === kind)!;

  test("Anthropic models without native structured outputs get the schema as a forced json tool", async () => {
    const k = kindOf("provider_b");
    const standin = standins.get(k.kind)!;
    standin.next({ do: "ok", object: drill });
    const { record, object } = await call(k, { model: "claude-3-5-haiku-latest" });
    expect(object).toEqual(drill);
    const body = standin.received.at(-1)!.body;
    expect(body.tools).toEqual([expect.objectContaining({ name: "json" })]);
    // Not in the table: the call is recorded, its cost unknown.
    expect(record).toMatchObject({ outcome: "ok", costSource: "unknown", model: "claude-3-5-haiku-latest" });
    expect(record.cost).toBeUndefined();
  });

  test("a refusal outranks an answer that parses: stop_reason refusal after a complete object", async () => {
    const k = kindOf("provider_b");
    standins.get(k.kind)!.next({ do: "refuse", after: drill });
    const { record, object } = await call(k);
    expect(object).toBeNull();
    expect(record).toMatchObject({ outcome: "refused", errorCode: "content_filter" });
  });

  test("the caller's cancel ends the call as a timeout with errorCode cancelled", async () => {
    const k = kindOf("provider_a");
    standins.get(k.kind)!.next({ do: "hang" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { record } = await call(k, { signal: controller.signal });
    expect(record).toMatchObject({ outcome: "timeout", errorCode: "cancelled" });
  });

  test("a 401 is a refused key (key_refused_401, not an outage), and the provider's message is not kept", async () => {
    const k = kindOf("provider_c");
    standins.get(k.kind)!.next({ do: "status", status: 401 });
    const { record } = await call(k);
    expect(record).toMatchObject({ outcome: "provider_error", errorCode: "key_refused_401" });
    expect(JSON.stringify(record)).not.toContain("internal error");
    expect(JSON.stringify(record)).not.toContain("unregistered callers");
  });

  test("no key: nothing is sent, and the packages' OPENAI_API_KEY fallback is not borrowed", async () => {
    const standin = standins.get("provider_a")!;
    const before = standin.received.length;
    process.env.OPENAI_API_KEY = "sk-from-the-environment";
    try {
      const result = await extractStructured({
        provider: { kind: "provider_a", model: "gpt-4o-mini", baseUrl: standin.baseUrl },
        paidBy: { scope: "user", label: "Me", mine: true },
        schema,
        prompt: "p",
        images: [],
      });
      expect(result.record).toMatchObject({ outcome: "provider_error", errorCode: "no_api_key", tokens: 0, images: 0 });
    } finally {
      delete process.env.OPENAI_API_KEY;
    }
    expect(standin.received.length).toBe(before);
  });
});
