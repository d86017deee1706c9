/**
 * A device thirty days offline with 10,000 queued ops syncs completely, through the app's own
 * outbox and pusher (client/sync/outbox.ts, client/sync/pusher.ts on fake-indexeddb) against a real
 * server, with the page reloaded now and then while the ops queue and while they push: every op is
 * applied once, or dropped into one sync_drop inbox item (DR2), or, for the one the server cannot
 * read (a 400), set aside on the device (PU8); nothing stays pending, nothing is lost or doubled.
 *
 * The work (test/support/offline-work.ts) is captures, creates, renames, moves, deletes, meters and
 * their readings, loans and returns. Some ops are refused: made stale by someone else meanwhile,
 * aimed at a thing or meter deleted meanwhile, and poison (NUL in a name, an unknown op, a location
 * the person cannot see, args nested too deep, an update of the thing whose create was refused).
 * A reload is a new database handle on the same IndexedDB, as a page load opens; one reload falls
 * between the server's answer to a push and the device recording it, so that batch goes again and
 * is answered `duplicate` (PU9).
 */
import "fake-indexeddb/auto";
import { v7 as uuidv7 } from "uuid";
import { expect, vi } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { InventoryDb } from "../../../client/db/database.js";
import { enqueue, type OpDraft } from "../../../client/sync/outbox.js";
import { BATCH_SIZE, pushOnce, type PushOutcome, type PushPace } from "../../../client/sync/pusher.js";
import { MAX_ARGS_DEPTH } from "../../../sync/protocol.js";
import { seeded, sleep } from "../../support/device-load.js";
import { locationWithRoles, type Client } from "../../support/members.js";
import { draftFor, emptyView, nested, pickKind, type Kind } from "../../support/offline-work.js";
import { serverCounts, verdicts } from "../../support/offline-verdicts.js";

const OPS = 10_000;
const DAY_MS = 24 * 3600 * 1000;
const DAYS = 30;
/** A reload while the ops queue, every this many ops; and while they push, every this many pushes. */
const RELOAD_EVERY_OPS = 1_500;
const RELOAD_EVERY_PUSHES = 15;
/** The push whose answer the page does not live to record. */
const LOST_ANSWER_AT = 7;

const dbName = `offline-month-${uuidv7()}`;
let loc: string;
let member: Client;
let owner: Client;
let outsiderLoc: string;
let personalLoc: string;
let device: InventoryDb;
/** Set to make the next push's answer arrive after the page went away. */
let loseNextAnswer = false;
const answered = { applied: 0, dropped: 0, duplicate: 0 };

/** A page load: the old page's handle is gone, the new one opens the same IndexedDB. */
const reload = () => {
  device.close();
  device = new InventoryDb(dbName);
};

test.beforeAll(async ({ svc }) => {
  const fixture = await locationWithRoles(svc);
  loc = fixture.locationId;
  ({ member, owner } = fixture.as);
  outsiderLoc = (await fixture.as.outsider.get("/api/v1/me")).body.locations[0].id;
  personalLoc = ((await member.get("/api/v1/me")).body.locations as { id: string; isPersonal: boolean }[]).find((l) => l.isPersonal)!.id;
  device = new InventoryDb(dbName);
  // The app on the device: its API calls go to the test server with the person's session cookie
  // and the app's Origin, as the browser would add them. Push answers are tallied as they arrive.
  const cookie = [...member.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const realFetch = globalThis.fetch;
  vi.stubGlobal("location", { origin: svc.url });
  vi.stubGlobal("fetch", async (input: string | URL | Request, init: RequestInit = {}) => {
    const res = await realFetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), cookie, origin: svc.config.publicUrl.origin } });
    if (new URL(input instanceof Request ? input.url : input).pathname === "/api/v1/sync/push" && res.ok) {
      for (const r of ((await res.clone().json()) as { results: { status: keyof typeof answered }[] }).results) answered[r.status]++;
      if (loseNextAnswer) {
        loseNextAnswer = false;
        device.close();
      }
    }
    return res;
  });
});

test.afterAll(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  device?.close();
  await new InventoryDb(dbName).delete();
});

interface Refusal {
  /** The outbox's op id, once queued. */
  id?: string;
  what: string;
  /** Drop reasons the server may give (DR1), or "rejected": set aside on the device after a 400 (PU8). */
  expect: string[];
}

test("a device 30 days offline with 10,000 queued ops, reloaded while queueing and pushing, syncs completely: each op applied once or dropped with its one sync_drop item; nothing lost, doubled or pending", async ({
  svc,
}) => {
  const started = Date.now();
  // Before going offline the device saw these of the owner's things at version 1 (and a meter on one).
  const ownerThing = async (name: string) => (await owner.post(`/api/v1/locations/${loc}/things`, { name })).body.id as string;
  const renamedMeanwhile = await Promise.all(["Ladder", "Drill", "Saw", "Tent"].map(ownerThing));
  const deletedMeanwhile = await Promise.all(["Old lamp", "Old chair", "Old kettle"].map(ownerThing));
  const boiler = await ownerThing("Boiler");
  const ownerMeter = await owner.post(`/api/v1/things/${boiler}/meters`, { kind: "gas", unit: "m3" });
  expect(ownerMeter.status).toBe(201);

  // Thirty days offline: the outbox fills with what the person did, each op stamped when it was made.
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - DAYS * DAY_MS });
  const random = seeded(20260130);
  const view = emptyView();
  const refusals: Refusal[] = [];
  const queued: string[] = [];
  const madeAt = new Map<string, string>();
  const kinds = new Map<string, number>();
  const queue = async (draft: OpDraft) => {
    const op = await enqueue(device, draft);
    queued.push(op.id);
    madeAt.set(op.id, op.at);
    kinds.set(draft.name, (kinds.get(draft.name) ?? 0) + 1);
    vi.advanceTimersByTime(Math.floor(random() * ((2 * DAYS * DAY_MS) / OPS)));
  };
  const refused = (what: string, expected: string[], draft: () => unknown) => async () => {
    const r: Refusal = { what, expect: expected };
    refusals.push(r);
    await queue(draft() as OpDraft);
    r.id = queued.at(-1)!;
  };
  const nulThing = uuidv7();
  const gone = ["deleted", "not_found"];
  const refuseAt = new Map<number, () => Promise<void>>([
    [700, refused("NUL in a name", ["invalid"], () => ({ name: "thing.create", locationId: loc, args: { id: nulThing, name: "Drill\u0000bit" } }))],
    [
      701,
      refused("an update of the thing whose create was refused", ["depends_on_dropped", "not_found"], () => ({
        name: "thing.update",
        locationId: loc,
        args: { id: nulThing, patch: { colour: "red" } },
        baseVersion: 1,
      })),
    ],
    [1500, refused("an op name the server does not know", ["unknown_op"], () => ({ name: "thing.teleport", locationId: loc, args: { id: uuidv7() } }))],
    [
      2600,
      refused("a location the person cannot see", ["not_visible"], () => ({
        name: "thing.create",
        locationId: outsiderLoc,
        args: { id: uuidv7(), name: "Sneaky" },
      })),
    ],
    [
      4200,
      refused("args nested too deep", ["rejected"], () => ({
        name: "thing.update",
        locationId: loc,
        args: { id: renamedMeanwhile[0], patch: { fields: { note: nested(MAX_ARGS_DEPTH + 4) } } },
        baseVersion: 1,
      })),
    ],
    ...renamedMeanwhile.map((id, i): [number, () => Promise<void>] => [
      1950 + i * 2300,
      refused("a rename made stale meanwhile", ["stale"], () => ({
        name: "thing.update",
        locationId: loc,
        args: { id, patch: { name: `Mine ${i}` } },
        baseVersion: 1,
      })),
    ]),
    [
      3100,
      refused("a move of a thing deleted meanwhile", gone, () => ({
        name: "thing.move",
        locationId: loc,
        args: { id: deletedMeanwhile[0], placeId: view.places[0] },
        baseVersion: 1,
      })),
    ],
    [
      5700,
      refused("a rename of a thing deleted meanwhile", gone, () => ({
        name: "thing.update",
        locationId: loc,
        args: { id: deletedMeanwhile[1], patch: { name: "Lamp" } },
        baseVersion: 1,
      })),
    ],
    [
      7300,
      refused("a loan of a thing deleted meanwhile", gone, () => ({
        name: "loan.create",
        locationId: loc,
        args: { id: uuidv7(), thingId: deletedMeanwhile[2], direction: "out", person: { name: "Farah", id: uuidv7() } },
      })),
    ],
    ...[2000, 6600, 9500].map((at, i): [number, () => Promise<void>] => [
      at,
      refused("a reading of a meter deleted meanwhile", gone, () => ({
        name: "reading.capture",
        locationId: loc,
        args: { id: uuidv7(), meterId: ownerMeter.body.id, value: String(100 + i), takenAt: new Date().toISOString() },
      })),
    ]),
  ]);
  // The month's work comes in sittings: a run of one kind, then another; the page reloads now and then.
  let kind: Kind = "place.create";
  let run = 3;
  let queueReloads = 0;
  const reloadedAt = new Set<number>();
  for (let n = 0; queued.length < OPS; n++) {
    if (queued.length && queued.length % RELOAD_EVERY_OPS === 0 && !reloadedAt.has(queued.length)) {
      reloadedAt.add(queued.length);
      reload();
      queueReloads++;
      expect(await device.outbox.count()).toBe(queued.length);
    }
    const r = refuseAt.get(queued.length);
    if (r) {
      await r();
      continue;
    }
    if (run-- <= 0) {
      kind = pickKind(view, random);
      run = 5 + Math.floor(random() * 35);
    }
    await queue(draftFor(kind, view, loc, n, random));
  }
  vi.useRealTimers();
  const queuedIn = (Date.now() - started) / 1000;
  expect(Date.now() - new Date(madeAt.get(queued[0]!)!).getTime()).toBeGreaterThan((DAYS - 1) * DAY_MS);

  // Meanwhile, online, the owner renamed some things, deleted others and a meter.
  for (const id of renamedMeanwhile) expect((await owner.patch(`/api/v1/things/${id}`, { name: "Owner's now", rowVersion: 1 })).status).toBe(200);
  for (const id of deletedMeanwhile) expect((await owner.delete(`/api/v1/things/${id}`, { rowVersion: 1 })).status).toBe(200);
  expect((await owner.delete(`/api/v1/meters/${ownerMeter.body.id}`)).status).toBe(200);

  // Back online: the pusher runs a batch at a time until the outbox is idle, through reloads; one
  // push's answer comes back after its page went away, so that batch is pushed again.
  const pushStarted = Date.now();
  let pace: PushPace = { value: BATCH_SIZE };
  const outcomes: Record<PushOutcome["kind"] | "lost", number> = { idle: 0, pushed: 0, retry: 0, smaller: 0, blocked: 0, lost: 0 };
  let pushReloads = 0;
  for (let i = 1; i < 1000; i++) {
    if (i % RELOAD_EVERY_PUSHES === 0) {
      reload();
      pace = { value: BATCH_SIZE };
      pushReloads++;
    }
    loseNextAnswer = i === LOST_ANSWER_AT;
    const outcome = await pushOnce(device, "offline-month-device", pace).catch((err: unknown) => {
      // The page was gone when the answer came: the next page starts over with what the outbox holds.
      if (!(err instanceof Error) || err.name !== "DatabaseClosedError") throw err;
      reload();
      pace = { value: BATCH_SIZE };
      return { kind: "lost" as const };
    });
    outcomes[outcome.kind]++;
    if (outcome.kind === "idle") break;
    expect(outcome.kind, JSON.stringify(outcome)).not.toBe("blocked");
    if (outcome.kind === "retry") await sleep(Math.min(outcome.retryAfterMs ?? 500, 2000));
  }
  const pushedIn = (Date.now() - pushStarted) / 1000;
  expect(outcomes.idle).toBe(1);
  expect(outcomes.lost).toBe(1);
  // The lost batch went again: the server answered each of its ops `duplicate`, having applied it once.
  expect(answered.duplicate).toBe(BATCH_SIZE);

  // The device: nothing pending; only the op the server could not read is set aside.
  const outbox = await device.outbox.toArray();
  const rejectedIds = outbox.filter((e) => e.state === "rejected").map((e) => e.op.id);
  expect(outbox.filter((e) => e.state === "pending")).toEqual([]);
  expect(rejectedIds).toEqual(refusals.filter((r) => r.expect.includes("rejected")).map((r) => r.id));

  // The server: every other op has exactly one verdict, applied or dropped into its one sync_drop item.
  const v = await verdicts(svc.database.db, member.userId, queued);
  expect(v.doubled).toEqual([]);
  expect(v.strangers).toEqual([]);
  expect(v.twoVerdicts).toEqual([]);
  expect(queued.filter((id) => !v.byOp.has(id) && !rejectedIds.includes(id))).toEqual([]);
  expect(v.dropped.filter((r) => r.item_kind !== "sync_drop" || r.item_op !== r.op_id || r.items !== 1)).toEqual([]);
  // Each drop's item is dated when its op was made, weeks ago, not when it reached the server.
  expect(v.dropped.filter((r) => r.captured_ms !== new Date(madeAt.get(r.op_id)!).getTime())).toEqual([]);
  const got = refusals.map((r) => (rejectedIds.includes(r.id!) ? "rejected" : (v.byOp.get(r.id!)?.reason ?? v.byOp.get(r.id!)?.status ?? "none")));
  expect(refusals.filter((r, i) => !r.expect.includes(got[i]!)).map((r, i) => `${r.what}: ${got[i]}`)).toEqual([]);
  // Only the refused ops failed, and the invisible location's drop went to the person's own location (DR3).
  expect(v.dropped.map((r) => r.op_id).sort()).toEqual(
    refusals
      .filter((r) => !r.expect.includes("rejected"))
      .map((r) => r.id!)
      .sort(),
  );
  expect(v.byOp.get(refusals.find((r) => r.expect.includes("not_visible"))!.id!)?.item_location).toBe(personalLoc);
  expect(v.applied.length + v.dropped.length + rejectedIds.length).toBe(OPS);

  // What was applied is what the device holds, each row once: things, places, meters, readings, loans, drafts.
  const server = await serverCounts(svc.database.db, member.userId, loc, view);
  expect(server.differing.slice(0, 5)).toEqual([]);
  expect(server.counts).toEqual(server.expected);
  expect((await owner.get(`/api/v1/things/${renamedMeanwhile[1]}`)).body.name).toBe("Owner's now");

  const reasons = v.dropped.map((r) => r.reason ?? "?").sort();
  console.log(
    `offline month (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}): ${OPS} ops over ${DAYS} days ` +
      `(${[...kinds].map(([k, c]) => `${k} ${c}`).join(", ")}) queued in ${queuedIn.toFixed(1)} s with ${queueReloads} reloads; ` +
      `synced in ${pushedIn.toFixed(1)} s (${outcomes.pushed} pushes, ${outcomes.smaller} halvings, ${outcomes.retry} retries, ${pushReloads} reloads, ` +
      `${outcomes.lost} answer lost and its ${answered.duplicate} ops answered duplicate): applied ${v.applied.length}, dropped ${v.dropped.length} ` +
      `(${reasons.join(", ")}), set aside ${rejectedIds.length}, pending 0; on the server ${JSON.stringify(server.counts)}; ` +
      `${((Date.now() - started) / 1000).toFixed(1)} s in all`,
  );
}, 300_000);
