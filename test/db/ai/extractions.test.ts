/**
 * The extraction pipeline against a provider stand-in speaking OpenAI's wire format (the real
 * @ai-sdk/openai package sends): a capture with a photo queues a run, the worker reads the photo,
 * fills empty fields, leaves a person's values alone with suggestions beside them, and records
 * the call with its cost; people answer suggestions by ops; failures, retries, supersession and a
 * worker that died mid-run all end in the spec's statuses.
 */
import { describe, expect } from "vitest";
import { aiTest as test } from "../../support/ai-fixtures.js";
import { v7 as uuidv7 } from "uuid";
import { pino } from "pino";
import { extractionRecordSchema } from "../../../shared/extractions.js";
import { inboxItemSchema } from "../../../shared/inbox.js";
import { historyEntrySchema } from "../../../shared/history.js";
import { type Worker } from "../../../server/modules/extractions/worker.js";
import { claimDue } from "../../../server/ai/extraction-queue.js";
import { runExtraction } from "../../../server/modules/extractions/run.js";
import { blobStoreOf } from "../../../server/modules/files/blob-store.js";
import { costLaterCalls } from "../../../server/ai/later-costs.js";
import { rows, sql } from "../../../server/db/client.js";
import type { TestService } from "../../support/app.js";
import { locationWithRoles, type Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";
import { openaiFormat } from "../../support/ai-standins/openai.js";
import { type Standin } from "../../support/ai-standins/server.js";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const KEY = "sk-standin-extract-SECRET-5d1e";
const none = { value: null, confidence: 0, photo: null };
/** What the model "reads" from a drill's photo. */
const DRILL = {
  name: { value: "Cordless drill", confidence: 0.92, photo: 1 },
  description: none,
  model: { value: "GSR 12V-15", confidence: 0.81, photo: 1 },
  serial: none,
  colour: { value: "blue", confidence: 0.7, photo: 1 },
  quantity: none,
  custom: {},
};

let standin: Standin;
let svc: TestService;
let as: Awaited<ReturnType<typeof locationWithRoles>>["as"];
let loc: string;
let worker: Worker;
const logger = pino({ level: "silent" });

test.override("aiKey", KEY);
test.override("aiEnv", { SVC_AI_ALLOW_LOOPBACK: "1" });
test.beforeAll(async ({ standin: stand, svc: service, team, worker: work }) => {
  standin = stand;
  svc = service;
  ({ as, locationId: loc } = team);
  worker = work;
});

async function upload(c: Client): Promise<string> {
  const res = await fetch(`${svc.url}/api/v1/files?locationId=${loc}`, {
    method: "POST",
    headers: { origin: svc.config.publicUrl.origin, cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; "), "content-type": "image/png" },
    body: new Uint8Array(PNG),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function capture(name: string | null): Promise<{ thingId: string; fileId: string }> {
  const fileId = await upload(as.member);
  const thingId = uuidv7();
  const res = await push(as.member, [op({ name: "thing.capture", locationId: loc, args: { id: thingId, ...(name ? { name } : {}), photoFileIds: [fileId] } })]);
  expect(res.body.results[0].status).toBe("applied");
  return { thingId, fileId };
}

const extractionsOf = async (c: Client, thingId: string) => {
  const res = await c.get(`/api/v1/things/${thingId}/extractions`);
  expect(res.status).toBe(200);
  return res.body.items.map((x: unknown) => extractionRecordSchema.parse(x));
};

const draftOf = async (thingId: string) => {
  const items = (await as.admin.get(`/api/v1/inbox?locationId=${loc}&kind=draft&limit=200`)).body.items as unknown[];
  return items.map((i) => inboxItemSchema.parse(i)).find((i) => i.thing?.id === thingId)!;
};

describe("a capture with a photo", () => {
  let thingId: string;
  let fileId: string;

  test("queues an extraction the inbox shows, and the worker fills the empty fields, suggesting beside the person's own", async () => {
    standin.next({ do: "ok", object: DRILL });
    ({ thingId, fileId } = await capture("Drill"));
    expect((await draftOf(thingId)).extraction).toMatchObject({ status: "queued" });
    const versionBefore = (await as.member.get(`/api/v1/things/${thingId}`)).body.rowVersion as number;
    const before = standin.received.length;
    expect(await worker.drain()).toBe(1);
    // The request carried the photo and a JSON schema naming the thing's fields; the key went in its header only.
    const sent = standin.received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent[0]!.raw.includes(KEY)).toBe(false);
    expect(openaiFormat().imagesOf(sent[0]!.body)).toHaveLength(1);
    expect(JSON.stringify(openaiFormat().schemaOf(sent[0]!.body))).toContain('"model"');

    const thing = (await as.member.get(`/api/v1/things/${thingId}`)).body;
    expect(thing.name).toBe("Drill");
    expect(thing.model).toBe("GSR 12V-15");
    // The server's reading, not a person's edit: the version devices hold stays current.
    expect(thing.rowVersion).toBe(versionBefore);
    const [run] = await extractionsOf(as.viewer, thingId);
    expect(run).toMatchObject({ status: "succeeded", attempt: 1, mode: "thing", model: "gpt-4o-mini", applied: ["model", "colour"] });
    // gpt-4o-mini at 1200 in + 80 out from the shipped price table.
    expect(run.call).toMatchObject({ outcome: "ok", costSource: "price_table", cost: { amount: "0.000228", currency: "USD" }, images: 1, tokens: 1280 });
    expect(run.call.paidBy).toEqual({ scope: "instance", label: expect.any(String), mine: false });

    const item = await draftOf(thingId);
    expect(item.extraction).toMatchObject({ id: run.id, status: "succeeded", call: { outcome: "ok" } });
    const status = item.thing!.fieldStatus!;
    expect(status.model).toMatchObject({ state: "extracted", confidence: 0.81 });
    expect(status.name).toMatchObject({
      state: "manual",
      suggestions: [{ field: "name", value: "Cordless drill", confidence: 0.92, source: { extractionId: run.id, attachmentId: fileId } }],
    });

    const history = (await as.member.get(`/api/v1/things/${thingId}/history`)).body.items.map((h: unknown) => historyEntrySchema.parse(h));
    const filled = history.find((h: { summaryKey: string }) => h.summaryKey === "thing.extracted");
    expect(filled.aiCall).toMatchObject({ task: "extract_thing", cost: { amount: "0.000228", currency: "USD" }, costSource: "price_table" });
    expect(filled.summaryLines.map((l: { text: string }) => l.text)).toContain("model: — → GSR 12V-15");
  });

  test("accepting a suggestion is an op: the value becomes the field's, confirmed, and the history names the call and its cost", async () => {
    const [run] = await extractionsOf(as.member, thingId);
    const accept = op({ name: "thing.suggestion.accept", locationId: loc, args: { id: thingId, field: "name", extractionId: run.id } });
    expect((await push(as.member, [accept])).body.results[0].status).toBe("applied");
    const thing = (await as.member.get(`/api/v1/things/${thingId}`)).body;
    expect(thing.name).toBe("Cordless drill");
    const item = await draftOf(thingId);
    expect(item.thing!.fieldStatus!.name).toEqual({ state: "confirmed", confidence: 0.92 });
    const history = (await as.member.get(`/api/v1/things/${thingId}/history`)).body.items;
    const used = history.find((h: { summaryKey: string }) => h.summaryKey === "thing.suggestion_accepted");
    expect(used.aiCall).toMatchObject({ task: "extract_thing", cost: { amount: "0.000228" }, paidBy: { scope: "instance" } });
    expect(used.summaryLines[0].text).toBe("name: Drill → Cordless drill");
    expect((await extractionsOf(as.member, thingId))[0].applied.sort()).toEqual(["colour", "model", "name"]);
    // The suggestion is spent: the same op again is refused, and lands in the inbox as a drop.
    const again = await push(as.member, [op({ name: "thing.suggestion.accept", locationId: loc, args: { id: thingId, field: "name", extractionId: run.id } })]);
    expect(again.body.results[0]).toMatchObject({ status: "dropped", reason: "conflict" });
  });

  test("confirming an extracted value; a person's edit makes a field theirs again; a viewer can do neither", async () => {
    const confirm = op({ name: "thing.field.confirm", locationId: loc, args: { id: thingId, field: "model" } });
    expect((await push(as.viewer, [confirm])).body.results[0].status).toBe("dropped");
    expect((await push(as.member, [confirm])).body.results[0].status).toBe("applied");
    expect((await draftOf(thingId)).thing!.fieldStatus!.model).toEqual({ state: "confirmed", confidence: 0.81 });
    const notExtracted = await push(as.member, [op({ name: "thing.field.confirm", locationId: loc, args: { id: thingId, field: "serial" } })]);
    expect(notExtracted.body.results[0]).toMatchObject({ status: "dropped", reason: "conflict" });
    const thing = (await as.member.get(`/api/v1/things/${thingId}`)).body;
    const edit = await as.member.patch(`/api/v1/things/${thingId}`, { rowVersion: thing.rowVersion, colour: "green" });
    expect(edit.status).toBe(200);
    const status = (await draftOf(thingId)).thing!.fieldStatus!;
    expect(status.colour).toBeUndefined();
    expect(status.model).toEqual({ state: "confirmed", confidence: 0.81 });
  });
});

test("re-running supersedes the unfinished run; viewers read the list but cannot ask; outsiders see nothing", async () => {
  const { thingId } = await capture(null);
  expect((await as.viewer.post(`/api/v1/things/${thingId}/extractions`, {})).status).toBe(403);
  expect((await as.outsider.get(`/api/v1/things/${thingId}/extractions`)).status).toBe(404);
  const again = await as.member.post(`/api/v1/things/${thingId}/extractions`, {});
  expect(again.status).toBe(201);
  expect(extractionRecordSchema.parse(again.body)).toMatchObject({ status: "queued", attempt: 0, call: null });
  const list = await extractionsOf(as.viewer, thingId);
  expect(list.map((r: { status: string }) => r.status)).toEqual(["queued", "superseded"]);
  expect((await draftOf(thingId)).extraction).toMatchObject({ id: again.body.id, status: "queued" });
  standin.next({ do: "ok", object: DRILL });
  await worker.drain();
  expect((await extractionsOf(as.viewer, thingId)).map((r: { status: string }) => r.status)).toEqual(["succeeded", "superseded"]);
  // The draft had no name: the model's name went in.
  expect((await as.member.get(`/api/v1/things/${thingId}`)).body.name).toBe("Cordless drill");
  expect((await as.member.post(`/api/v1/things/${thingId}/extractions`, { fileIds: [uuidv7()] })).status).toBe(404);
});

test("a provider error waits with backoff and is tried again; an off-schema answer fails; both are recorded calls", async () => {
  const { thingId } = await capture("Kettle");
  standin.next({ do: "status", status: 503 });
  await worker.drain();
  const [waiting] = await extractionsOf(as.member, thingId);
  expect(waiting).toMatchObject({ status: "waiting_provider", statusReason: "provider_error", attempt: 1, call: { outcome: "provider_error" } });
  expect(await worker.drain()).toBe(0); // not due yet
  standin.next({ do: "text", text: "I think it is a kettle" });
  const later = new Date(Date.now() + 31_000);
  const [claimed] = await claimDue(svc.database.db, later, svc.config.aiLeaseMs, 10);
  expect(claimed).toMatchObject({ thing_id: thingId, attempt: 2 });
  await runExtraction({ db: svc.database.db, config: svc.config, store: blobStoreOf(svc.config), logger }, claimed!, () => later);
  const [failed] = await extractionsOf(as.member, thingId);
  expect(failed).toMatchObject({ status: "failed", attempt: 2, call: { outcome: "schema_invalid" } });
  const calls = await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM ai_calls WHERE thing_id = ${thingId}`);
  expect(calls[0]!.n).toBe(2);
});

test("a worker that died mid-run: the run is claimed again once its lease ends, and applies once", async () => {
  const { thingId } = await capture(null);
  const t0 = new Date();
  const db = svc.database.db;
  const [first] = await claimDue(db, t0, svc.config.aiLeaseMs, 10);
  expect(first?.thing_id).toBe(thingId);
  // The worker that claimed it is gone. Before its lease ends nobody else takes it.
  expect(await claimDue(db, new Date(t0.getTime() + 10_000), svc.config.aiLeaseMs, 10)).toEqual([]);
  const after = new Date(t0.getTime() + svc.config.aiLeaseMs + 1000);
  const [again] = await claimDue(db, after, svc.config.aiLeaseMs, 10);
  expect(again).toMatchObject({ id: first!.id, attempt: 2 });
  standin.next({ do: "ok", object: DRILL });
  const deps = { db, config: svc.config, store: blobStoreOf(svc.config), logger };
  await runExtraction(deps, again!, () => after);
  // The dead worker's late answer (had it come back) finds the run no longer its own: nothing applies twice.
  await runExtraction(deps, first!, () => after);
  const [run] = await extractionsOf(as.member, thingId);
  expect(run).toMatchObject({ status: "succeeded", attempt: 2 });
  const filled = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM history_entries WHERE entity_id = ${thingId} AND action = 'thing.extracted'`);
  expect(filled[0]!.n).toBe(1);
});

test("custom fields: asked for and filled (a secret one never sent); a money value hidden from viewers in the inbox", async () => {
  const type = await as.admin.post(`/api/v1/locations/${loc}/types`, { name: "Appliance" });
  for (const f of [
    { key: "price", label: "Price paid", kind: "money" },
    { key: "voltage", label: "Voltage", kind: "number", unit: "V" },
    { key: "wifi_password", label: "Wi-Fi password", kind: "text", secret: true },
  ])
    expect((await as.owner.post(`/api/v1/types/${type.body.id}/fields`, f)).status).toBe(201);
  const fileId = await upload(as.member);
  const thingId = uuidv7();
  const captured = await push(as.member, [
    op({ name: "thing.capture", locationId: loc, args: { id: thingId, name: "Fridge", typeId: type.body.id, photoFileIds: [fileId] } }),
  ]);
  expect(captured.body.results[0].status).toBe("applied");
  standin.next({
    do: "ok",
    object: {
      ...DRILL,
      name: none,
      model: none,
      colour: none,
      custom: { price: { value: { amount: "499.00", currency: "EUR" }, confidence: 0.6, photo: 1 }, voltage: { value: 230, confidence: 0.9, photo: 1 } },
    },
  });
  const before = standin.received.length;
  await worker.drain();
  const schema = JSON.stringify(openaiFormat().schemaOf(standin.received[before]!.body));
  expect(schema).toContain("Price paid");
  expect(schema).toContain("voltage");
  expect(schema).not.toContain("wifi_password");
  const thing = (await as.member.get(`/api/v1/things/${thingId}`)).body;
  expect(thing.fields).toMatchObject({ price: { amount: "499.00", currency: "EUR" }, voltage: 230 });
  const seen = async (c: Client) => {
    const items = (await c.get(`/api/v1/inbox?locationId=${loc}&kind=draft&limit=200`)).body.items as {
      thing?: { id: string; fieldStatus: Record<string, unknown> };
    }[];
    return items.find((i) => i.thing?.id === thingId)!.thing!.fieldStatus;
  };
  expect(Object.keys(await seen(as.admin)).sort()).toEqual(["fields.price", "fields.voltage"]);
  expect(Object.keys(await seen(as.viewer))).toEqual(["fields.voltage"]);
  // The same in the things shape a viewer's device syncs.
  const shaped = async (c: Client) => {
    const messages = (await c.get(`/api/v1/sync/shape/things?offset=-1`)).body as { value?: { id: string; field_status: string } }[];
    return Object.keys(JSON.parse(messages.find((m) => m.value?.id === thingId)!.value!.field_status) as object).sort();
  };
  expect(await shaped(as.admin)).toEqual(["fields.price", "fields.voltage"]);
  expect(await shaped(as.viewer)).toEqual(["fields.voltage"]);
});

test("a call costed later: the history shows the cost the late-costing job found, not the copy it kept", async () => {
  const { thingId } = await capture(null);
  standin.next({ do: "ok", object: DRILL });
  await worker.drain();
  const db = svc.database.db;
  // As if the table had not known the model when the call came back.
  await db.execute(sql`UPDATE ai_calls SET cost_source = 'price_table_later', cost_amount = NULL, cost_currency = NULL WHERE thing_id = ${thingId}`);
  const entry = async () =>
    ((await as.member.get(`/api/v1/things/${thingId}/history`)).body.items as { summaryKey: string; aiCall?: { costSource: string; cost?: unknown } }[]).find(
      (h) => h.summaryKey === "thing.extracted",
    )!.aiCall;
  expect(await entry()).toMatchObject({ costSource: "price_table_later" });
  expect((await entry())?.cost).toBeUndefined();
  expect(await costLaterCalls(db)).toBeGreaterThanOrEqual(1);
  expect(await entry()).toMatchObject({ costSource: "price_table", cost: { amount: "0.000228", currency: "USD" } });
});

test("a person's own provider pays (through the address guard); past its budget the run pauses until next month, nothing sent", async () => {
  const mine = { providerKind: "provider_a", model: "gpt-4o-mini", apiKey: "sk-members-own-key", baseUrl: standin.baseUrl };
  expect((await as.admin.request("PUT", "/api/v1/me/ai-settings", mine)).status).toBe(200);
  const { thingId } = await capture(null);
  // The capture is the member's, so the instance pays for it: the admin's settings are the admin's.
  standin.next({ do: "ok", object: DRILL });
  await worker.drain();
  expect((await extractionsOf(as.member, thingId))[0].call.paidBy).toMatchObject({ scope: "instance", mine: false });
  // The admin asks again: now the admin's own key pays, sent through the guard to the stand-in.
  const before = standin.received.length;
  expect((await as.admin.post(`/api/v1/things/${thingId}/extractions`, {})).status).toBe(201);
  await worker.drain();
  expect(standin.received[before]!.headers.authorization).toBe("Bearer sk-members-own-key");
  const [paid] = await extractionsOf(as.admin, thingId);
  expect(paid).toMatchObject({ status: "succeeded", call: { paidBy: { scope: "user", mine: true } } });
  expect((await extractionsOf(as.member, thingId))[0].call.paidBy.mine).toBe(false);
  // A budget smaller than one call: the next run is held back.
  const tight = { ...mine, apiKey: undefined, monthlyBudget: { amount: "0.000001", currency: "USD" } };
  expect((await as.admin.request("PUT", "/api/v1/me/ai-settings", tight)).status).toBe(200);
  expect((await as.admin.post(`/api/v1/things/${thingId}/extractions`, {})).status).toBe(201);
  const sent = standin.received.length;
  await worker.drain();
  expect(standin.received.length).toBe(sent);
  const [held] = await extractionsOf(as.admin, thingId);
  const now = new Date();
  expect(held).toMatchObject({ status: "paused_budget", pausedUntil: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString() });
  expect(held.call).toMatchObject({ costSource: "not_sent", outcome: "over_budget", tokens: 0 });
  expect((await draftOf(thingId)).extraction).toMatchObject({ status: "paused_budget", pausedUntil: held.pausedUntil });
  expect((await as.admin.request("DELETE", "/api/v1/me/ai-settings")).status).toBe(204);
});
