/**
 * kill -9 during a running extraction (issue "inbox-ai": "a restart during a running extraction
 * loses nothing: it finishes after the restart, once"). The real server process reads a captured
 * photo through a provider stand-in that does not answer; the process is killed while the call
 * hangs and started again on the same data; the run's lease ends, another worker takes it, the
 * provider answers, and the thing's fields are filled exactly once.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { v7 as uuidv7 } from "uuid";
import { afterAll, beforeAll, expect, test } from "vitest";
import { PROTOCOL } from "../../sync/protocol.js";
import { send, signedInDevice, sleep, type Device } from "../support/device-load.js";
import { emptyDatabase } from "../support/pg-database.js";
import { serverProcess, type ServerProcess } from "../support/server-process.js";
import { openaiFormat } from "../support/ai-standins/openai.js";
import { startStandin, type Standin } from "../support/ai-standins/server.js";

const adminUrl = process.env.TEST_DATABASE_URL;
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const none = { value: null, confidence: 0, photo: null };
const ANSWER = {
  name: { value: "Ladder", confidence: 0.9, photo: 1 },
  description: none,
  model: { value: "L-300", confidence: 0.8, photo: 1 },
  serial: none,
  colour: none,
  quantity: none,
  custom: {},
};
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-extract-kill-"));
let empty: Awaited<ReturnType<typeof emptyDatabase>> | undefined;
let standin: Standin;
let server: ServerProcess;
let device: Device;

beforeAll(async () => {
  standin = await startStandin(openaiFormat());
  if (adminUrl) empty = await emptyDatabase(adminUrl, "svc_extract_kill");
  server = await serverProcess({
    dataDir,
    ...(empty ? { databaseUrl: empty.url } : {}),
    env: {
      SVC_AI_PROVIDER: "provider_a",
      SVC_AI_MODEL: "gpt-4o-mini",
      SVC_AI_API_KEY: "sk-standin",
      SVC_AI_BASE_URL: standin.baseUrl,
      SVC_AI_LEASE_SECONDS: "3",
    },
  });
  await server.start();
  device = await signedInDevice(server.origin, "Restart device");
});

afterAll(async () => {
  await server?.stop("SIGKILL");
  await standin?.close();
  await empty?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function get(p: string) {
  const res = await send(server.origin, "GET", p, { cookie: device.cookie, address: device.address });
  return { status: res.status, body: JSON.parse(res.body) as Record<string, unknown> & { items: Record<string, unknown>[] } };
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n${server.output()}`);
    await sleep(200);
  }
}

test("a run cut off by kill -9 is taken again after the restart and applies once", async () => {
  const up = await fetch(`${server.origin}/api/v1/files?locationId=${device.locationId}`, {
    method: "POST",
    headers: { origin: server.origin, cookie: device.cookie, "content-type": "image/png" },
    body: new Uint8Array(PNG),
  });
  expect(up.status).toBe(201);
  const fileId = ((await up.json()) as { id: string }).id;
  const thingId = uuidv7();
  standin.next({ do: "hang" });
  const op = {
    id: uuidv7(),
    name: "thing.capture",
    locationId: device.locationId,
    args: { id: thingId, photoFileIds: [fileId] },
    at: new Date().toISOString(),
  };
  const pushed = await send(server.origin, "POST", "/api/v1/sync/push", {
    cookie: device.cookie,
    address: device.address,
    body: { clientId: device.clientId, protocol: PROTOCOL, ops: [op] },
  });
  expect(pushed.status).toBe(200);
  // The worker has sent the call and waits for it.
  await until("the call to reach the provider", async () => standin.received.length >= 1);
  expect((await get(`/api/v1/things/${thingId}/extractions`)).body.items[0]).toMatchObject({ status: "running", attempt: 1 });
  await server.stop("SIGKILL");

  standin.next({ do: "ok", object: ANSWER });
  await server.start();
  const done = await until("the run to succeed", async () => {
    const [run] = (await get(`/api/v1/things/${thingId}/extractions`)).body.items;
    return run?.status === "succeeded" ? run : null;
  });
  expect(done).toMatchObject({ attempt: 2, applied: ["name", "model"], call: { outcome: "ok" } });
  const thing = (await get(`/api/v1/things/${thingId}`)).body;
  expect(thing).toMatchObject({ name: "Ladder", model: "L-300" });
  const history = (await get(`/api/v1/things/${thingId}/history`)).body.items;
  expect(history.filter((h) => h.summaryKey === "thing.extracted")).toHaveLength(1);
  expect(standin.received).toHaveLength(2);
});
