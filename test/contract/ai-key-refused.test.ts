/**
 * A wrong key against every provider kind, with the real AI SDK packages and stand-ins that answer
 * it as the real providers do (OpenAI's 401 invalid_api_key, Anthropic's authentication_error,
 * Gemini's 400 API_KEY_INVALID, OpenRouter's and Mistral's 401): the call ends `key_refused_<status>`,
 * told apart from an outage, and the key check made on save says the same with one cheap GET.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import type { ProviderKind } from "../../shared/ai.js";
import { extractStructured } from "../../server/ai/extract.js";
import { guardedAiFetch } from "../../server/ai/guarded-fetch.js";
import { checkApiKey } from "../../server/ai/key-check.js";
import { refusedKeyStatus } from "../../server/ai/key-refusal.js";
import { anthropicFormat } from "../support/ai-standins/anthropic.js";
import { compatibleFormat, mistralFormat, openrouterFormat } from "../support/ai-standins/chat-completions.js";
import { geminiFormat } from "../support/ai-standins/gemini.js";
import { openaiFormat } from "../support/ai-standins/openai.js";
import { startStandin, type Standin, type WireFormat } from "../support/ai-standins/server.js";

const GOOD = "sk-standin-good-SECRET-4e21";
const WRONG = "sk-standin-wrong-SECRET-9d07";
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const fetch = guardedAiFetch({ allowLoopback: true });

const KINDS: { kind: ProviderKind; model: string; format: () => WireFormat; wrongStatus: number; checkPath: string }[] = [
  { kind: "provider_a", model: "gpt-4o-mini", format: openaiFormat, wrongStatus: 401, checkPath: "/v1/models" },
  { kind: "provider_b", model: "claude-sonnet-4-5", format: anthropicFormat, wrongStatus: 401, checkPath: "/v1/models" },
  { kind: "provider_c", model: "gemini-2.5-flash", format: geminiFormat, wrongStatus: 400, checkPath: "/v1beta/models" },
  { kind: "provider_d", model: "mistral-small-latest", format: mistralFormat, wrongStatus: 401, checkPath: "/v1/models" },
  { kind: "router", model: "openai/gpt-4o-mini", format: () => openrouterFormat(0.0002), wrongStatus: 401, checkPath: "/api/v1/key" },
  { kind: "compatible_api", model: "llama3.2-vision", format: compatibleFormat, wrongStatus: 401, checkPath: "/v1/models" },
];

const standins = new Map<ProviderKind, Standin>();
beforeAll(async () => {
  for (const k of KINDS) standins.set(k.kind, await startStandin(k.format(), { keys: [GOOD] }));
});
afterAll(async () => {
  for (const s of standins.values()) await s.close();
});

describe.each(KINDS)("$kind: a wrong key", (k) => {
  const provider = (apiKey: string) => ({ kind: k.kind, model: k.model, apiKey, baseUrl: standins.get(k.kind)!.baseUrl });

  test(`a call ends key_refused_${k.wrongStatus}, not an outage; nothing of the provider's answer is kept`, async () => {
    const result = await extractStructured({
      provider: provider(WRONG),
      paidBy: { scope: "user", label: "Test", mine: true },
      schema: z.object({ brand: z.string().nullable() }),
      prompt: "Read the brand.",
      images: [{ bytes: new Uint8Array(PNG), mime: "image/png" }],
      timeoutMs: 5_000,
    });
    expect(result.record).toMatchObject({ outcome: "provider_error", errorCode: `key_refused_${k.wrongStatus}` });
    expect(refusedKeyStatus(result.record.errorCode)).toBe(k.wrongStatus);
    expect(result.retryAfterSeconds).toBeNull();
    expect(JSON.stringify(result)).not.toContain("SECRET");
  });

  test("the key check: one GET in the provider's way; taken, refused with its status, or unreachable on a 5xx and a 429", async () => {
    const standin = standins.get(k.kind)!;
    standin.next({ do: "ok", object: {} });
    const before = standin.received.length;
    expect(await checkApiKey(provider(GOOD), fetch)).toEqual({ ok: true });
    expect(standin.received.slice(before).map((r) => r.path)).toEqual([k.checkPath]);
    expect(k.format().keyOf(standin.received.at(-1)!.headers)).toBe(GOOD);
    expect(await checkApiKey(provider(WRONG), fetch)).toEqual({ ok: false, refused: k.wrongStatus });
    for (const status of [500, 503, 429]) {
      standin.next({ do: "status", status });
      expect(await checkApiKey(provider(GOOD), fetch)).toEqual({ ok: false, unreachable: `HTTP ${status}` });
    }
    standin.next({ do: "hang" });
    expect(await checkApiKey(provider(GOOD), fetch, 300)).toEqual({ ok: false, unreachable: "no answer in time" });
  });
});

test("5xx and 429 are still outages (http_503, rate_limited), never a refused key", async () => {
  const standin = standins.get("provider_b")!;
  for (const [status, expected] of [
    [503, { outcome: "provider_error", errorCode: "http_503" }],
    [529, { outcome: "provider_error", errorCode: "http_529" }],
    [429, { outcome: "rate_limited", errorCode: "http_429" }],
  ] as const) {
    standin.next({ do: "status", status });
    const result = await extractStructured({
      provider: { kind: "provider_b", model: "claude-sonnet-4-5", apiKey: GOOD, baseUrl: standin.baseUrl },
      paidBy: { scope: "instance", label: "Instance", mine: false },
      schema: z.object({ brand: z.string().nullable() }),
      prompt: "Read the brand.",
      images: [{ bytes: new Uint8Array(PNG), mime: "image/png" }],
      timeoutMs: 5_000,
    });
    expect(result.record).toMatchObject(expected);
    expect(refusedKeyStatus(result.record.errorCode)).toBeNull();
  }
});
