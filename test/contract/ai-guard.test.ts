/**
 * A base URL a person entered in AI settings goes out through the guard against internal
 * addresses (server/ai/guarded-fetch.ts); a call refused there sends nothing and is recorded as
 * provider_error base_url_refused. The test setting allowLoopback lets the same guarded path reach a
 * loopback stand-in, so the guarded fetch itself is shown to carry a real call.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { z } from "zod";
import { extractStructured, notSent } from "../../server/ai/extract.js";
import { guardedAiFetch } from "../../server/ai/guarded-fetch.js";
import { aiCallRecordSchema, type PaidBy } from "../../shared/ai.js";
import { compatibleFormat } from "../support/ai-standins/chat-completions.js";
import { startStandin, type Standin } from "../support/ai-standins/server.js";
import type { Resolver } from "../../server/oauth/guarded-fetch.js";

const KEY = "sk-user-entered-SECRET-5521";
const paidBy: PaidBy = { scope: "user", label: "Rana", mine: true };
const schema = z.object({ brand: z.string().nullable() });
let standin: Standin;

beforeAll(async () => {
  standin = await startStandin(compatibleFormat());
});
afterAll(() => standin.close());

const run = (baseUrl: string, fetch: typeof globalThis.fetch) =>
  extractStructured({
    provider: { kind: "compatible_api", model: "llava", apiKey: KEY, baseUrl },
    paidBy,
    schema,
    prompt: "p",
    images: [],
    fetch,
    timeoutMs: 3_000,
  });

test("a loopback base URL is refused before anything is sent", async () => {
  const before = standin.received.length;
  const { record } = await run(standin.baseUrl, guardedAiFetch({ allowLoopback: false }));
  expect(record).toMatchObject({ outcome: "provider_error", errorCode: "base_url_refused", tokens: 0 });
  expect(JSON.stringify(record)).not.toContain(KEY);
  expect(standin.received.length).toBe(before);
});

test("a host name that resolves to an internal address is refused, even among public ones", async () => {
  const resolve: Resolver = async () => [
    { address: "93.184.215.14", family: 4 },
    { address: "169.254.169.254", family: 4 },
  ];
  const { record } = await run("https://llm.example.org/v1", guardedAiFetch({ allowLoopback: false, resolve }));
  expect(record).toMatchObject({ outcome: "provider_error", errorCode: "base_url_refused" });
});

test("plain http to a public host is refused; credentials in the URL too", async () => {
  const resolve: Resolver = async () => [{ address: "93.184.215.14", family: 4 }];
  expect((await run("http://llm.example.org/v1", guardedAiFetch({ allowLoopback: false, resolve }))).record.errorCode).toBe("base_url_refused");
  expect((await run("https://u:p@llm.example.org/v1", guardedAiFetch({ allowLoopback: false, resolve }))).record.errorCode).toBe("base_url_refused");
});

test("through the guard (loopback allowed, as tests do) the call arrives whole and answers", async () => {
  standin.next({ do: "ok", object: { brand: "Makita" } });
  const { record, object } = await run(standin.baseUrl, guardedAiFetch({ allowLoopback: true }));
  expect(object).toEqual({ brand: "Makita" });
  expect(record).toMatchObject({ outcome: "ok", tokens: 1280, costSource: "unknown" });
  const got = standin.received.at(-1)!;
  expect(got.headers.authorization).toBe(`Bearer ${KEY}`);
  expect(got.body.model).toBe("llava");
  standin.next({ do: "status", status: 429, retryAfter: "3" });
  const limited = await run(standin.baseUrl, guardedAiFetch({ allowLoopback: true }));
  expect(limited.record.outcome).toBe("rate_limited");
  expect(limited.retryAfterSeconds).toBe(3);
});

test("notSent: over budget and no usable provider, costSource not_sent", () => {
  const over = notSent({ provider: { kind: "provider_a", model: "gpt-4o-mini" }, paidBy, images: 2 }, "over_budget");
  expect(aiCallRecordSchema.strict().parse(over)).toEqual({
    model: "gpt-4o-mini",
    providerKind: "provider_a",
    tokens: 0,
    images: 2,
    costSource: "not_sent",
    paidBy,
    outcome: "over_budget",
    errorCode: "over_budget",
  });
  expect(notSent({ provider: { kind: "router", model: "m" }, paidBy, images: 0 }, "no_provider")).toMatchObject({
    outcome: "provider_error",
    errorCode: "no_provider",
    costSource: "not_sent",
  });
});
