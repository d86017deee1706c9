import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { InventoryDb } from "../../../client/db/database.js";
import { enqueue } from "../../../client/sync/outbox.js";
import { BATCH_SIZE, HALVE_AFTER, pushOnce, type PushPace } from "../../../client/sync/pusher.js";

const LOC = "0190a000-0000-7000-8000-000000000001";
const thingId = (i: number) => `0190a000-0000-7000-8000-${String(100 + i).padStart(12, "0")}`;
const INBOX = "0190a000-0000-7000-8000-000000000999";

type Sent = { url: string; body: unknown; type: string | null };

/** A server stand-in: records what the pusher sends and answers with `answer`. */
function server(answer: (req: Sent, n: number) => Response) {
  const sent: Sent[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    const req = { url, body: typeof init.body === "string" ? JSON.parse(init.body) : init.body, type: headers["content-type"] ?? null };
    sent.push(req);
    return answer(req, sent.length);
  });
  return sent;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

describe("pusher", () => {
  let db: InventoryDb;
  beforeEach(() => {
    vi.stubGlobal("location", { origin: "http://app.test" });
    db = new InventoryDb(`push-${Math.random()}`);
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    db.close();
    await db.delete();
  });

  const capture = (i: number, blobIds: string[] = []) =>
    enqueue(db, { name: "thing.capture", locationId: LOC, args: { id: thingId(i), ...(blobIds.length ? { photoFileIds: blobIds } : {}) } }, blobIds);

  it("PU1/PU4 pushes the oldest ops in order with the client id and protocol, and records one verdict per op", async () => {
    const [a, b] = [await capture(1), await capture(2)];
    const sent = server(() =>
      json(200, {
        results: [
          { id: a.id, status: "applied", rowVersion: 1, txid: "77" },
          { id: b.id, status: "dropped", reason: "forbidden", inboxItemId: INBOX },
        ],
      }),
    );
    const outcome = await pushOnce(db, "web-1", { value: BATCH_SIZE });
    expect(outcome).toMatchObject({ kind: "pushed", applied: 1, dropped: 1, shapes: ["things", "inbox"] });
    expect(sent[0]!.url).toBe("http://app.test/api/v1/sync/push");
    expect(sent[0]!.body).toMatchObject({ clientId: "web-1", protocol: 1, ops: [{ id: a.id }, { id: b.id }] });
    expect(await pushOnce(db, "web-1", { value: BATCH_SIZE })).toEqual({ kind: "idle" });
  });

  it("PU3 a 429 or 503 is retried later, never sooner than Retry-After, with the batch unchanged", async () => {
    await capture(1);
    server(() => json(503, { error: { code: "unavailable", message: "busy" } }, { "retry-after": "3" }));
    expect(await pushOnce(db, "web-1", { value: BATCH_SIZE })).toMatchObject({ kind: "retry", retryAfterMs: 3000, offline: false });
    expect(await db.outbox.count()).toBe(1);
  });

  it("no network is a quiet retry, not an error", async () => {
    await capture(1);
    vi.stubGlobal("fetch", async () => {
      throw new TypeError("Failed to fetch");
    });
    expect(await pushOnce(db, "web-1", { value: BATCH_SIZE })).toMatchObject({ kind: "retry", offline: true });
  });

  it("stops on a lost session until the person signs in again", async () => {
    await capture(1);
    server(() => json(401, { error: { code: "unauthenticated", message: "sign in" } }));
    expect(await pushOnce(db, "web-1", { value: BATCH_SIZE })).toMatchObject({ kind: "blocked", why: "signed_out" });
    server(() => json(403, { error: { code: "mfa_required", message: "second factor" } }));
    expect(await pushOnce(db, "web-1", { value: BATCH_SIZE })).toMatchObject({ kind: "blocked", why: "mfa_required" });
  });

  it("PU3 halves the batch on 413, and sets aside the one op the server cannot read (400)", async () => {
    await capture(1);
    await capture(2);
    const size = { value: BATCH_SIZE };
    server((_req, n) =>
      n === 1 ? json(413, { error: { code: "payload_too_large", message: "big" } }) : json(400, { error: { code: "validation_failed", message: "op 0" } }),
    );
    expect(await pushOnce(db, "web-1", size)).toEqual({ kind: "smaller" });
    expect(size.value).toBe(1);
    expect(await pushOnce(db, "web-1", size)).toEqual({ kind: "smaller" });
    expect((await db.outbox.toArray()).map((e) => e.state)).toEqual(["rejected", "pending"]);
  });

  it("PU8 a batch the server keeps failing on (500) is halved until the one op it cannot take is set aside; the rest go through", async () => {
    const ops = [];
    for (let i = 1; i <= 4; i++) ops.push(await capture(i));
    const poison = ops[2]!.id;
    // The server fails on any batch holding the poison op, and applies the others.
    server((req) => {
      const sent = (req.body as { ops: { id: string }[] }).ops;
      if (sent.some((o) => o.id === poison)) return json(500, { error: { code: "internal", message: "Something went wrong" } });
      return json(200, { results: sent.map((o, i) => ({ id: o.id, status: "applied", rowVersion: 1, txid: String(100 + i) })) });
    });
    const pace: PushPace = { value: BATCH_SIZE };
    const outcomes = [];
    for (let n = 0; n < 30; n++) {
      const outcome = await pushOnce(db, "web-1", pace);
      outcomes.push(outcome.kind);
      if (outcome.kind === "idle") break;
    }
    expect(outcomes.at(-1)).toBe("idle");
    const left = await db.outbox.toArray();
    expect(left.filter((e) => e.state === "rejected").map((e) => e.op.id)).toEqual([poison]);
    expect(left.filter((e) => e.state === "pending")).toEqual([]);
    // Retried before giving up: at least one 500 is waited out at each size before halving.
    expect(outcomes.filter((k) => k === "retry").length).toBeGreaterThanOrEqual(HALVE_AFTER - 1);
  });

  it("PU8 one 500 is retried with the batch unchanged; a success in between starts the count again", async () => {
    await capture(1);
    await capture(2);
    let fail = true;
    server((req) => {
      const sent = (req.body as { ops: { id: string }[] }).ops;
      return fail
        ? json(500, { error: { code: "internal", message: "x" } })
        : json(200, { results: sent.map((o) => ({ id: o.id, status: "applied", rowVersion: 1, txid: "9" })) });
    });
    const pace: PushPace = { value: BATCH_SIZE };
    expect(await pushOnce(db, "web-1", pace)).toMatchObject({ kind: "retry" });
    expect(pace.value).toBe(BATCH_SIZE);
    fail = false;
    expect(await pushOnce(db, "web-1", pace)).toMatchObject({ kind: "pushed", applied: 2 });
    expect(pace.failures).toBe(0);
  });

  it("PU8 a 503 is waited out, never bisected", async () => {
    await capture(1);
    await capture(2);
    server(() => json(503, { error: { code: "unavailable", message: "busy" } }, { "retry-after": "1" }));
    const pace: PushPace = { value: BATCH_SIZE };
    for (let n = 0; n < 5; n++) expect(await pushOnce(db, "web-1", pace)).toMatchObject({ kind: "retry" });
    expect(pace.value).toBe(BATCH_SIZE);
    expect((await db.outbox.toArray()).map((e) => e.state)).toEqual(["pending", "pending"]);
  });

  it("uploads a capture's photo before pushing the op that names it", async () => {
    const photo = "0190a000-0000-7000-8000-000000000555";
    await db.blobs.put({
      id: photo,
      locationId: LOC,
      thingId: thingId(1),
      blob: new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }),
      state: "local",
      createdAt: "2026-11-22T10:00:00Z",
    });
    const op = await capture(1, [photo]);
    const sent = server((req) =>
      req.url.includes("/files")
        ? json(201, { id: photo, url: "/api/v1/files/x", thumbUrl: null })
        : json(200, { results: [{ id: op.id, status: "applied", rowVersion: 1, txid: "5" }] }),
    );
    await pushOnce(db, "web-1", { value: BATCH_SIZE });
    expect(sent.map((s) => s.url)).toEqual([`http://app.test/api/v1/files?locationId=${LOC}&id=${photo}`, "http://app.test/api/v1/sync/push"]);
    expect(sent[0]!.type).toBe("image/png");
    expect((await db.blobs.get(photo))?.state).toBe("uploaded");
  });

  it("a photo the server refuses for good is left out, so the capture itself still goes through", async () => {
    const photo = "0190a000-0000-7000-8000-000000000556";
    await db.blobs.put({
      id: photo,
      locationId: LOC,
      thingId: thingId(1),
      blob: new Blob(["not an image"], { type: "text/plain" }),
      state: "local",
      createdAt: "2026-11-22T10:00:00Z",
    });
    const op = await capture(1, [photo]);
    const sent = server((req) =>
      req.url.includes("/files")
        ? json(415, { error: { code: "unsupported_media_type", message: "not a photo" } })
        : json(200, { results: [{ id: op.id, status: "applied", rowVersion: 1, txid: "6" }] }),
    );
    expect(await pushOnce(db, "web-1", { value: BATCH_SIZE })).toMatchObject({ kind: "pushed", applied: 1 });
    expect((sent[1]!.body as { ops: { args: { photoFileIds: string[] } }[] }).ops[0]!.args.photoFileIds).toEqual([]);
    expect((await db.blobs.get(photo))?.state).toBe("failed");
  });
});
