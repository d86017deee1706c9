/**
 * A key the provider refuses (HTTP 401, as the real provider answers a wrong key) is not an outage:
 * the run fails at once with a reason naming whose key it was, the payer's settings say the key
 * was refused until it is replaced, and a save with `check: true` asks the provider first. An
 * outage (5xx, 429) still waits and is tried again.
 */
import { expect } from "vitest";
import { aiTest as test } from "../../support/ai-fixtures.js";
import { v7 as uuidv7 } from "uuid";
import { aiSettingsOverviewSchema } from "../../../shared/ai-settings.js";
import { errorBodySchema } from "../../../shared/errors.js";
import { extractionRecordSchema } from "../../../shared/extractions.js";
import { inboxItemSchema } from "../../../shared/inbox.js";
import { type Worker } from "../../../server/modules/extractions/worker.js";
import { claimDue } from "../../../server/ai/extraction-queue.js";
import { sql } from "../../../server/db/client.js";
import type { TestService } from "../../support/app.js";
import { locationWithRoles, type Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";
import { type Standin } from "../../support/ai-standins/server.js";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const INSTANCE_KEY = "sk-standin-instance-SECRET-77aa";
const GOOD_KEY = "sk-standin-members-good-SECRET-19bc";
const WRONG_KEY = "sk-standin-members-WRONG-SECRET-00ff";
const none = { value: null, confidence: 0, photo: null };
const KETTLE = {
  name: { value: "Kettle", confidence: 0.9, photo: 1 },
  description: none,
  model: none,
  serial: none,
  colour: none,
  quantity: none,
  custom: {},
};

let standin: Standin;
let svc: TestService;
let as: Awaited<ReturnType<typeof locationWithRoles>>["as"];
let loc: string;
let worker: Worker;

test.override("aiKey", INSTANCE_KEY);
// The provider knows the instance's key and the member's good one; any other is answered 401.
test.override("standinKeys", [INSTANCE_KEY, GOOD_KEY]);
test.override("aiEnv", { SVC_AI_ALLOW_LOOPBACK: "1" });
test.beforeAll(async ({ standin: stand, svc: service, team, worker: work }) => {
  standin = stand;
  svc = service;
  ({ as, locationId: loc } = team);
  worker = work;
});

async function capture(c: Client): Promise<string> {
  const res = await fetch(`${svc.url}/api/v1/files?locationId=${loc}`, {
    method: "POST",
    headers: { origin: svc.config.publicUrl.origin, cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; "), "content-type": "image/png" },
    body: new Uint8Array(PNG),
  });
  expect(res.status).toBe(201);
  const fileId = ((await res.json()) as { id: string }).id;
  const thingId = uuidv7();
  const pushed = await push(c, [op({ name: "thing.capture", locationId: loc, args: { id: thingId, photoFileIds: [fileId] } })]);
  expect(pushed.body.results[0].status).toBe("applied");
  return thingId;
}

const latest = async (c: Client, thingId: string) =>
  extractionRecordSchema.parse(((await c.get(`/api/v1/things/${thingId}/extractions`)).body.items as unknown[])[0]);

const draftOf = async (thingId: string) => {
  const items = (await as.admin.get(`/api/v1/inbox?locationId=${loc}&kind=draft&limit=200`)).body.items as unknown[];
  return items.map((i) => inboxItemSchema.parse(i)).find((i) => i.thing?.id === thingId)!;
};

const mySettings = async (c: Client) => aiSettingsOverviewSchema.parse((await c.get("/api/v1/me/ai-settings")).body).user;

const settings = (apiKey: string | undefined, extra: Record<string, unknown> = {}) => ({
  providerKind: "provider_a",
  model: "gpt-4o-mini",
  baseUrl: standin.baseUrl,
  ...(apiKey ? { apiKey } : {}),
  ...extra,
});

/** Due later than any backoff: a run that waits for the provider would be claimed again by then. */
const claimLater = () => claimDue(svc.database.db, new Date(Date.now() + 3_600_000), svc.config.aiLeaseMs, 10);

test("a refused key fails the run at once, naming whose key; the settings say so until a key the provider takes replaces it", async () => {
  expect((await as.member.request("PUT", "/api/v1/me/ai-settings", settings(WRONG_KEY))).status).toBe(200);
  const thingId = await capture(as.member);
  await worker.drain();
  const run = await latest(as.member, thingId);
  expect(run).toMatchObject({
    status: "failed",
    statusReason: "key_refused:user:401",
    attempt: 1,
    call: { outcome: "provider_error", errorCode: "key_refused_401", paidBy: { scope: "user", mine: true } },
  });
  expect(standin.received.at(-1)!.headers.authorization).toBe(`Bearer ${WRONG_KEY}`);
  // Not tried again: nothing is due, however long one waits.
  expect(await claimLater()).toEqual([]);
  expect((await draftOf(thingId)).extraction).toMatchObject({ status: "failed", statusReason: "key_refused:user:401" });
  const refused = await mySettings(as.member);
  expect(refused).toMatchObject({ hasKey: true, keyRefused: { status: 401 } });
  expect(Date.now() - Date.parse(refused!.keyRefused!.at)).toBeLessThan(60_000);

  // A change that keeps the key keeps the refusal; a new key (the provider takes it) clears it.
  expect((await as.member.request("PUT", "/api/v1/me/ai-settings", settings(undefined, { enabled: true }))).body.keyRefused).toMatchObject({ status: 401 });
  const replaced = await as.member.request("PUT", "/api/v1/me/ai-settings", settings(GOOD_KEY));
  expect(replaced.status).toBe(200);
  expect(replaced.body.keyRefused).toBeNull();
  standin.next({ do: "ok", object: KETTLE });
  expect((await as.member.post(`/api/v1/things/${thingId}/extractions`, {})).status).toBe(201);
  await worker.drain();
  expect(await latest(as.member, thingId)).toMatchObject({ status: "succeeded", call: { outcome: "ok" } });
  expect((await mySettings(as.member))!.keyRefused).toBeNull();
  expect((await as.member.request("DELETE", "/api/v1/me/ai-settings")).status).toBe(204);
});

test("the instance's refused key fails the run naming the server's key; nothing is kept on anyone's settings", async () => {
  // The member has no settings of their own: the instance pays, with a key the stand-in now refuses (403).
  standin.next({ do: "status", status: 403 });
  const thingId = await capture(as.member);
  await worker.drain();
  expect(await latest(as.member, thingId)).toMatchObject({ status: "failed", statusReason: "key_refused:instance:403", attempt: 1 });
  expect(await claimLater()).toEqual([]);
});

test("an outage is still an outage: 503 and 429 wait and are tried again", async () => {
  for (const scenario of [
    { do: "status" as const, status: 503 },
    { do: "status" as const, status: 429, retryAfter: "20" },
  ]) {
    standin.next(scenario);
    const thingId = await capture(as.member);
    await worker.drain();
    expect(await latest(as.member, thingId)).toMatchObject({ status: "waiting_provider", attempt: 1 });
    expect((await draftOf(thingId)).extraction).toMatchObject({ status: "waiting_provider" });
    const again = await claimLater();
    expect(again.map((r) => r.thing_id)).toEqual([thingId]);
    // Handed back, so the next case starts with an empty queue.
    await svc.database.db.execute(sql`UPDATE extractions SET status = 'failed', lease_until = NULL WHERE thing_id = ${thingId}`);
  }
});

test("saving with check: a refused key is a 400 on apiKey and changes nothing; a provider that cannot say is a 503; a taken key saves", async () => {
  expect((await as.admin.request("PUT", "/api/v1/me/ai-settings", settings(GOOD_KEY, { model: "gpt-4o" }))).status).toBe(200);
  const before = await mySettings(as.admin);
  const sent = standin.received.length;

  const refused = await as.admin.request("PUT", "/api/v1/me/ai-settings", settings(WRONG_KEY, { check: true }));
  expect(refused.status).toBe(400);
  const error = errorBodySchema.parse(refused.body).error;
  expect(error.code).toBe("validation_failed");
  expect(error.message).toMatch(/^apiKey: the provider refused this key \(HTTP 401\), so nothing was saved\./);
  expect(error.details).toMatchObject({ field: "apiKey", reason: "key_refused", providerStatus: 401 });
  // One cheap authenticated GET, nothing generated; the key in its header and not in the answer.
  expect(standin.received.slice(sent).map((r) => r.path)).toEqual(["/v1/models"]);
  expect(JSON.stringify(refused.body)).not.toContain(WRONG_KEY);
  expect(await mySettings(as.admin)).toEqual(before);

  standin.next({ do: "status", status: 503 });
  const down = await as.admin.request("PUT", "/api/v1/me/ai-settings", settings(GOOD_KEY, { check: true, model: "gpt-4.1" }));
  expect(down.status).toBe(503);
  expect(errorBodySchema.parse(down.body).error.message).toContain("could not be reached to check the key");
  expect(await mySettings(as.admin)).toEqual(before);

  standin.next({ do: "ok", object: KETTLE });
  const taken = await as.admin.request("PUT", "/api/v1/me/ai-settings", settings(GOOD_KEY, { check: true, model: "gpt-4.1" }));
  expect(taken.status).toBe(200);
  expect(taken.body).toMatchObject({ model: "gpt-4.1", hasKey: true, keyRefused: null });
  // The stored key, kept (no apiKey sent), is what a check asks about.
  const kept = await as.admin.request("PUT", "/api/v1/me/ai-settings", settings(undefined, { check: true }));
  expect(kept.status).toBe(200);
  expect(standin.received.at(-1)!.headers.authorization).toBe(`Bearer ${GOOD_KEY}`);
  expect((await as.admin.request("DELETE", "/api/v1/me/ai-settings")).status).toBe(204);
});
