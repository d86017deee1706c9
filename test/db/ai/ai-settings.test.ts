/**
 * AI settings and who pays: keys go in sealed for their row and never come out (no response, no
 * row in clear, no log line), a base URL passes the guard against internal addresses, a key is
 * kept only for the provider and host it was entered for, personal tokens reach none of it, and
 * owners and admins see a location's AI costs by payer and model.
 */
import { v7 as uuidv7 } from "uuid";
import { describe, expect, test as base } from "vitest";
import { aiCostSummarySchema, aiSettingsOverviewSchema, aiSettingsViewSchema } from "../../../shared/ai-settings.js";
import { errorBodySchema } from "../../../shared/errors.js";
import { monthOf } from "../../../server/ai/budget.js";
import { resolvePayer } from "../../../server/ai/payer.js";
import type { InstanceAiConfig } from "../../../server/config.js";
import { rows, sql } from "../../../server/db/client.js";
import { saveSettings } from "../../../server/modules/ai-settings/service.js";
import { startService, type HttpResponse } from "../../support/app.js";
import { locationWithRoles, type Client } from "../../support/members.js";
import { dumpAllTables } from "../../support/secrets.js";

const test = base
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; this one has none
  .extend("env", { scope: "file" }, async ({}, { onCleanup }) => {
    const lines: string[] = [];
    const svc = await startService({ SVC_LOG_LEVEL: "info" }, undefined, { log: { write: (line: string) => void lines.push(line) } });
    onCleanup(() => svc.close());
    const team = await locationWithRoles(svc);
    return { svc, lines, loc: team.locationId, as: team.as };
  });

let n = 0;
const secretKey = () => `sk-test-${++n}-${uuidv7()}`;
const put = (c: Client, path: string, body: unknown) => c.request("PUT", path, body);
const code = (res: HttpResponse) => errorBodySchema.parse(res.body).error;
const ME = "/api/v1/me/ai-settings";
const ACCOUNT = "/api/v1/me/account/ai-settings";
const PUBLIC_URL = "https://93.184.215.14/v1"; // a public address: no DNS needed to check it
const instanceAi: InstanceAiConfig = { kind: "provider_c", model: "gemini-2.5-flash", apiKey: "instance-key", baseUrl: undefined };

describe("keys in, never out", () => {
  test("a key entered is in no response, no row in clear and no log line; the view says only hasKey", async ({ env }) => {
    const key = secretKey();
    const saved = await put(env.as.member, ME, { providerKind: "provider_a", model: "gpt-4o", apiKey: key, monthlyBudget: { amount: "5", currency: "USD" } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(aiSettingsViewSchema.strict().parse(saved.body)).toMatchObject({ scope: "user", hasKey: true, monthlyBudget: { amount: "5", currency: "USD" } });
    const got = await env.as.member.get(ME);
    expect(aiSettingsOverviewSchema.parse(got.body).user).toMatchObject({ providerKind: "provider_a", model: "gpt-4o", hasKey: true });
    for (const res of [saved, got]) expect(JSON.stringify(res.body)).not.toContain(key);
    expect(await dumpAllTables(env.svc.database.db)).not.toContain(key);
    expect(env.lines.join("\n")).not.toContain(key);
    // ... and it is the key that pays: resolvePayer opens it for the call.
    const payer = await resolvePayer(env.svc.database.db, { ai: undefined }, { locationId: env.loc, requestedBy: env.as.member.userId });
    expect(payer).toMatchObject({ provider: { kind: "provider_a", apiKey: key }, paidBy: { scope: "user", label: "Member Person" }, guarded: false });
    expect(payer?.payerKey).toBe(`user:${env.as.member.userId}`);
    expect((await env.as.member.delete(ME)).status).toBe(204);
  });

  test("a sealed key opens only for its own row: copied to another's, it opens nothing", async ({ env }) => {
    const key = secretKey();
    expect((await put(env.as.viewer, ME, { providerKind: "provider_b", model: "claude-haiku-4-5", apiKey: key })).status).toBe(200);
    expect((await put(env.as.admin, ME, { providerKind: "provider_b", model: "claude-haiku-4-5", apiKey: secretKey() })).status).toBe(200);
    const db = env.svc.database.db;
    await db.execute(sql`UPDATE ai_settings SET api_key_sealed = (SELECT api_key_sealed FROM ai_settings WHERE user_id = ${env.as.viewer.userId})
                         WHERE user_id = ${env.as.admin.userId}`);
    const viewer = await resolvePayer(db, { ai: undefined }, { locationId: env.loc, requestedBy: env.as.viewer.userId });
    const admin = await resolvePayer(db, { ai: undefined }, { locationId: env.loc, requestedBy: env.as.admin.userId });
    expect(viewer?.provider.apiKey).toBe(key);
    // Still the admin's settings that pay (they chose to), but with no key the call is refused before sending.
    expect(admin).toMatchObject({ paidBy: { scope: "user" }, provider: { apiKey: undefined } });
    await env.as.admin.delete(ME);
    await env.as.viewer.delete(ME);
  });

  test("omitted keeps the key; a new provider kind or base URL without a key forgets it; null removes it", async ({ env }) => {
    const c = await env.svc.signedIn("Kim Keys");
    expect((await put(c, ME, { providerKind: "provider_a", model: "gpt-4o", apiKey: secretKey() })).status).toBe(200);
    expect((await put(c, ME, { providerKind: "provider_a", model: "gpt-4.1" })).body).toMatchObject({ model: "gpt-4.1", hasKey: true });
    const moved = await put(c, ME, { providerKind: "router", model: "openai/gpt-4o-mini" });
    expect(moved.status).toBe(400);
    expect(code(moved)).toMatchObject({ code: "validation_failed", details: { field: "apiKey" } });
    expect(code(moved).message).toContain("enter the key again");
    expect((await c.get(ME)).body.user).toMatchObject({ providerKind: "provider_a", hasKey: true }); // the refused PUT changed nothing
    const elsewhere = await put(c, ME, { providerKind: "provider_a", model: "gpt-4o", baseUrl: PUBLIC_URL });
    expect(code(elsewhere).details).toMatchObject({ field: "apiKey" });
    const local = await put(c, ME, { providerKind: "compatible_api", model: "llava", baseUrl: PUBLIC_URL });
    expect(local.body).toMatchObject({ providerKind: "compatible_api", baseUrl: PUBLIC_URL, hasKey: false });
    expect((await put(c, ME, { providerKind: "compatible_api", model: "llava", baseUrl: PUBLIC_URL, apiKey: secretKey() })).body.hasKey).toBe(true);
    expect((await put(c, ME, { providerKind: "compatible_api", model: "llava", baseUrl: PUBLIC_URL, apiKey: null })).body.hasKey).toBe(false);
    expect(code(await put(c, ME, { providerKind: "provider_a", model: "gpt-4o", apiKey: null })).details).toMatchObject({ field: "apiKey" });
  });

  test("compatible_api needs a base URL; a budget is in USD", async ({ env }) => {
    const c = await env.svc.signedIn("Bea Budget");
    expect(code(await put(c, ME, { providerKind: "compatible_api", model: "llava" })).details).toMatchObject({ field: "baseUrl" });
    const eur = await put(c, ME, { providerKind: "provider_a", model: "gpt-4o", apiKey: secretKey(), monthlyBudget: { amount: "5", currency: "EUR" } });
    expect(code(eur).details).toMatchObject({ field: "monthlyBudget.currency" });
    expect((await c.get(ME)).body.user).toBeNull();
  });
});

describe("the base URL guard", () => {
  test.for<[string, string]>([
    ["https://127.0.0.1/v1", "internal"],
    ["https://169.254.169.254/latest", "internal"],
    ["https://[::1]/v1", "internal"],
    ["https://10.1.2.3/v1", "internal"],
    ["http://93.184.215.14/v1", "https only"],
    ["https://user:pw@93.184.215.14/v1", "credentials"],
  ])("%s is refused (400 naming baseUrl), and nothing is stored", async ([url, reason], { env }) => {
    const c = await env.svc.signedIn("Gus Guard");
    const res = await put(c, ME, { providerKind: "compatible_api", model: "llava", baseUrl: url });
    expect(res.status).toBe(400);
    expect(code(res).details).toMatchObject({ field: "baseUrl", reason: expect.stringContaining(reason) });
    expect((await c.get(ME)).body.user).toBeNull();
  });

  test("a public https address is stored; loopback over http only where the test setting allows it", async ({ env }) => {
    const c = await env.svc.signedIn("Pia Public");
    expect((await put(c, ME, { providerKind: "compatible_api", model: "llava", baseUrl: PUBLIC_URL })).status).toBe(200);
    const payer = await resolvePayer(env.svc.database.db, { ai: undefined }, { locationId: env.loc, requestedBy: c.userId });
    expect(payer).toMatchObject({ guarded: true, provider: { baseUrl: PUBLIC_URL } });
    const actor = { type: "user" as const, userId: c.userId, displayName: "Pia", mfaProven: false, locationScope: null, canWrite: true };
    const body = { providerKind: "compatible_api" as const, model: "llava", baseUrl: "http://127.0.0.1:11434/v1", enabled: true };
    await expect(saveSettings(env.svc.database.db, { allowLoopback: false }, actor, "user", body)).rejects.toThrow(/baseUrl/);
    expect(await saveSettings(env.svc.database.db, { allowLoopback: true }, actor, "user", body)).toMatchObject({ baseUrl: "http://127.0.0.1:11434/v1" });
  });
});

describe("who pays", () => {
  test("the requester's own settings, else the location owner's account, else the instance, else nobody", async ({ env }) => {
    const db = env.svc.database.db;
    const who = { locationId: env.loc, requestedBy: env.as.member.userId };
    const instance = { ai: { ...instanceAi, monthlyBudget: { amount: "20", currency: "USD" } } };
    expect(await resolvePayer(db, { ai: undefined }, who)).toBeNull();
    expect(await resolvePayer(db, instance, who)).toMatchObject({
      payerKey: "instance",
      paidBy: { scope: "instance", label: "Instance", mine: false },
      provider: { kind: "provider_c", apiKey: "instance-key" },
      budget: { amount: "20", currency: "USD" },
      guarded: false,
    });

    const ownerKey = secretKey();
    const acc = await put(env.as.owner, ACCOUNT, {
      providerKind: "provider_b",
      model: "claude-sonnet-4-5",
      apiKey: ownerKey,
      monthlyBudget: { amount: "12.5", currency: "USD" },
    });
    expect(acc.body).toMatchObject({ scope: "account", hasKey: true, monthlyBudget: { amount: "12.5", currency: "USD" } });
    const [account] = await rows<{ id: string }>(db, sql`SELECT account_id AS id FROM locations WHERE id = ${env.loc}`);
    expect(await resolvePayer(db, instance, who)).toMatchObject({
      payerKey: `account:${account!.id}`,
      accountId: account!.id,
      paidBy: { scope: "account", label: "Olive Owner (account)" },
      provider: { kind: "provider_b", apiKey: ownerKey },
      budget: { amount: "12.5", currency: "USD" },
    });
    // Nobody asked (a re-run by the service): the account pays.
    expect((await resolvePayer(db, instance, { locationId: env.loc, requestedBy: null }))?.paidBy.scope).toBe("account");

    const mine = secretKey();
    await put(env.as.member, ME, { providerKind: "provider_d", model: "mistral-small-latest", apiKey: mine });
    expect(await resolvePayer(db, instance, who)).toMatchObject({
      payerKey: `user:${env.as.member.userId}`,
      paidBy: { scope: "user", label: "Member Person" },
      provider: { apiKey: mine },
      budget: null,
    });

    await put(env.as.member, ME, { providerKind: "provider_d", model: "mistral-small-latest", enabled: false });
    expect((await resolvePayer(db, instance, who))?.paidBy.scope).toBe("account");
    await put(env.as.owner, ACCOUNT, { providerKind: "provider_b", model: "claude-sonnet-4-5", enabled: false });
    expect((await resolvePayer(db, instance, who))?.paidBy.scope).toBe("instance");

    const overview = aiSettingsOverviewSchema.parse((await env.as.owner.get(ME)).body);
    expect(overview.account).toMatchObject({ scope: "account", enabled: false, hasKey: true });
    expect(overview.instance).toBeNull(); // this service runs without SVC_AI_*

    expect((await env.as.owner.delete(ACCOUNT)).status).toBe(204);
    expect((await env.as.member.delete(ME)).status).toBe(204);
    expect(aiSettingsOverviewSchema.parse((await env.as.owner.get(ME)).body)).toMatchObject({ user: null, account: null });
    expect((await resolvePayer(db, instance, who))?.paidBy.scope).toBe("instance");
  });

  test("the view shows this month's spend of its payer", async ({ env }) => {
    const c = await env.svc.signedIn("Sam Spender");
    await put(c, ME, { providerKind: "provider_a", model: "gpt-4o", apiKey: secretKey(), monthlyBudget: { amount: "3", currency: "USD" } });
    expect((await c.get(ME)).body.user.spentThisMonth).toEqual({ amount: "0", currency: "USD" });
    await env.svc.database.db.execute(
      sql`INSERT INTO ai_budget_months (payer_key, month, currency, spent) VALUES (${`user:${c.userId}`}, ${monthOf(new Date())}, 'USD', 1.25)`,
    );
    expect((await c.get(ME)).body.user.spentThisMonth).toEqual({ amount: "1.25", currency: "USD" });
  });
});

describe("personal tokens", () => {
  test("reach none of these routes", async ({ env }) => {
    const made = await env.as.owner.post("/api/v1/tokens", { name: "script", scope: "write", locationIds: [env.loc] });
    expect(made.status).toBe(201);
    const auth = { authorization: `Bearer ${made.body.secret}` };
    const c = env.svc.client();
    const body = { providerKind: "provider_a", model: "gpt-4o", apiKey: secretKey() };
    for (const [method, path, b] of [
      ["GET", ME, undefined],
      ["PUT", ME, body],
      ["DELETE", ME, undefined],
      ["PUT", ACCOUNT, body],
      ["DELETE", ACCOUNT, undefined],
      ["GET", `/api/v1/locations/${env.loc}/ai-costs`, undefined],
    ] as const) {
      const res = await c.request(method, path, b, auth);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
    expect((await env.as.owner.get(ME)).body.user).toBeNull();
  });
});

describe("a location's AI costs", () => {
  async function call(db: Parameters<typeof resolvePayer>[0], loc: string, over: Record<string, unknown>) {
    const c = {
      scope: "user",
      label: "Member Person",
      model: "gpt-4o",
      kind: "provider_a",
      tokens: 1000,
      images: 1,
      amount: null,
      currency: null,
      source: "unknown",
      month: "2026-03",
      ...over,
    };
    await db.execute(sql`INSERT INTO ai_calls (id, location_id, task, model, provider_kind, tokens, images, cost_amount, cost_currency, cost_source,
                                               paid_by_scope, paid_by_label, payer_key, outcome, month)
                         VALUES (${uuidv7()}, ${loc}, 'extract_thing', ${c.model}, ${c.kind}, ${c.tokens}, ${c.images}, ${c.amount}::numeric, ${c.currency},
                                 ${c.source}, ${c.scope}, ${c.label}, 'k', 'ok', ${c.month})`);
  }

  test("by payer and model, with totals per currency; other months, locations and unsent calls left out", async ({ env }) => {
    const db = env.svc.database.db;
    const usd = { currency: "USD", source: "price_table" };
    await call(db, env.loc, { amount: "0.01", ...usd });
    await call(db, env.loc, { amount: "0.0025", tokens: 500, images: 2, ...usd });
    await call(db, env.loc, { tokens: 300, source: "price_table_later" });
    await call(db, env.loc, { scope: "account", label: "Olive Owner (account)", model: "claude-sonnet-4-5", kind: "provider_b", amount: "0.2", ...usd });
    await call(db, env.loc, { scope: "instance", label: "Instance", model: "llava", kind: "compatible_api", tokens: 50 });
    await call(db, env.loc, { tokens: 0, source: "not_sent" });
    await call(db, env.loc, { amount: "9", ...usd, month: "2026-02" });
    const other = (await (await env.svc.signedIn("Else Where")).get("/api/v1/me")).body.locations[0].id as string;
    await call(db, other, { amount: "9", ...usd });

    for (const who of [env.as.owner, env.as.admin]) {
      const res = await who.get(`/api/v1/locations/${env.loc}/ai-costs?month=2026-03`);
      expect(res.status).toBe(200);
      expect(aiCostSummarySchema.parse(res.body)).toEqual({
        locationId: env.loc,
        month: "2026-03",
        lines: [
          {
            scope: "account",
            label: "Olive Owner (account)",
            model: "claude-sonnet-4-5",
            providerKind: "provider_b",
            calls: 1,
            tokens: 1000,
            images: 1,
            cost: { amount: "0.2", currency: "USD" },
            uncosted: 0,
          },
          { scope: "instance", label: "Instance", model: "llava", providerKind: "compatible_api", calls: 1, tokens: 50, images: 1, cost: null, uncosted: 1 },
          {
            scope: "user",
            label: "Member Person",
            model: "gpt-4o",
            providerKind: "provider_a",
            calls: 3,
            tokens: 1800,
            images: 4,
            cost: { amount: "0.0125", currency: "USD" },
            uncosted: 1,
          },
        ],
        totals: [{ amount: "0.2125", currency: "USD" }],
      });
    }
    const empty = await env.as.owner.get(`/api/v1/locations/${env.loc}/ai-costs?month=2025-12`);
    expect(empty.body).toEqual({ locationId: env.loc, month: "2025-12", lines: [], totals: [] });
    expect((await env.as.owner.get(`/api/v1/locations/${env.loc}/ai-costs`)).body.month).toBe(monthOf(new Date()));
  });

  test("members and viewers are refused (403), outsiders see no such location (404), a bad month is a 400", async ({ env }) => {
    const path = `/api/v1/locations/${env.loc}/ai-costs?month=2026-03`;
    expect((await env.as.member.get(path)).status).toBe(403);
    expect((await env.as.viewer.get(path)).status).toBe(403);
    expect((await env.as.outsider.get(path)).status).toBe(404);
    expect((await env.as.owner.get(`/api/v1/locations/${env.loc}/ai-costs?month=2026-13`)).status).toBe(400);
  });
});
