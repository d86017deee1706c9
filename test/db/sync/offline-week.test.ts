/**
 * A device seven days offline with 5,000 queued ops syncs completely, through the app's own outbox
 * and pusher (client/sync/outbox.ts, client/sync/pusher.ts on fake-indexeddb) against a real
 * server: every op is applied, or dropped into a sync_drop inbox item (DR2), or, for the one the
 * server cannot read (a 400), set aside on the device (PU8); nothing stays pending and the counts
 * add up. A few ops are poison: NUL in a name, an op name the server does not know, an op in a
 * location the person cannot see, an update made stale by someone else meanwhile, args nested too
 * deep, and an update of the thing whose create was refused.
 */
import "fake-indexeddb/auto";
import { v7 as uuidv7 } from "uuid";
import { expect, vi } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { InventoryDb } from "../../../client/db/database.js";
import { enqueue, type OpDraft } from "../../../client/sync/outbox.js";
import { BATCH_SIZE, pushOnce, type PushOutcome, type PushPace } from "../../../client/sync/pusher.js";
import { rows, sql } from "../../../server/db/client.js";
import { MAX_ARGS_DEPTH } from "../../../sync/protocol.js";
import { seeded, sleep } from "../../support/device-load.js";
import { locationWithRoles, type Client } from "../../support/members.js";

const OPS = 5000;
const WEEK_MS = 7 * 24 * 3600 * 1000;

let loc: string;
let member: Client;
let owner: Client;
let outsiderLoc: string;
let personalLoc: string;
let device: InventoryDb;

test.beforeAll(async ({ svc }) => {
  const fixture = await locationWithRoles(svc);
  loc = fixture.locationId;
  ({ member, owner } = fixture.as);
  outsiderLoc = (await fixture.as.outsider.get("/api/v1/me")).body.locations[0].id;
  personalLoc = ((await member.get("/api/v1/me")).body.locations as { id: string; isPersonal: boolean }[]).find((l) => l.isPersonal)!.id;
  device = new InventoryDb(`offline-week-${uuidv7()}`);
  // The app on the device: its API calls go to the test server with the person's session cookie
  // and the app's Origin, as the browser would add them.
  const cookie = [...member.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const realFetch = globalThis.fetch;
  vi.stubGlobal("location", { origin: svc.url });
  vi.stubGlobal("fetch", (input: string | URL | Request, init: RequestInit = {}) =>
    realFetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), cookie, origin: svc.config.publicUrl.origin } }),
  );
});

test.afterAll(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  device?.close();
  await device?.delete();
});

interface Poison {
  /** The outbox's op id, once queued. */
  id?: string;
  what: string;
  /** Drop reasons the server may give (DR1), or "rejected": set aside on the device after a 400 (PU8). */
  expect: string[];
}

test("a device 7 days offline with 5,000 queued ops (some poison) syncs completely: each op applied, dropped with its sync_drop item, or the unreadable one set aside; nothing pending", async ({
  svc,
}) => {
  // Before going offline the device saw the owner's ladder at version 1; a week later the owner renamed it.
  const ladder = await owner.post(`/api/v1/locations/${loc}/things`, { name: "Ladder" });
  expect(ladder.status).toBe(201);

  // Seven days offline: the outbox fills with what the person did, each op stamped when it was made.
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - WEEK_MS });
  const random = seeded(20260107);
  const places: string[] = [];
  /** Things the device made: its view of each one's rowVersion and name, or null once deleted. */
  const things = new Map<string, { version: number; name: string; placeId: string } | null>();
  const live = () => [...things].filter(([, t]) => t !== null).map(([id]) => id);
  const poison: Poison[] = [];
  const queued: string[] = [];
  const queue = async (draft: OpDraft) => {
    queued.push((await enqueue(device, draft)).id);
    vi.advanceTimersByTime(Math.floor(random() * 60_000));
  };
  const queuePoison = async (what: string, expected: string[], draft: unknown) => {
    const p: Poison = { what, expect: expected };
    poison.push(p);
    await queue(draft as OpDraft);
    p.id = queued.at(-1)!;
  };
  const nulThing = uuidv7();
  const poisonAt = new Map<number, () => Promise<void>>([
    [700, () => queuePoison("NUL in a name", ["invalid"], { name: "thing.create", locationId: loc, args: { id: nulThing, name: "Drill\u0000bit" } })],
    [
      701,
      () =>
        queuePoison("an update of the thing whose create was refused", ["depends_on_dropped", "not_found"], {
          name: "thing.update",
          locationId: loc,
          args: { id: nulThing, patch: { colour: "red" } },
          baseVersion: 1,
        }),
    ],
    [1500, () => queuePoison("an op name the server does not know", ["unknown_op"], { name: "thing.teleport", locationId: loc, args: { id: live()[0] } })],
    [
      2600,
      () =>
        queuePoison("a location the person cannot see", ["not_visible"], {
          name: "thing.create",
          locationId: outsiderLoc,
          args: { id: uuidv7(), name: "Sneaky" },
        }),
    ],
    [
      3300,
      () =>
        queuePoison("an update made stale meanwhile", ["stale"], {
          name: "thing.update",
          locationId: loc,
          args: { id: ladder.body.id, patch: { name: "Step ladder" } },
          baseVersion: 1,
        }),
    ],
    [
      4200,
      () =>
        queuePoison("args nested too deep", ["rejected"], {
          name: "thing.update",
          locationId: loc,
          args: { id: live()[1], patch: { fields: { note: nested(MAX_ARGS_DEPTH + 4) } } },
          baseVersion: 1,
        }),
    ],
  ]);
  // A week of work comes in sittings: a run of captures, then renames, moves or a clear-out.
  let kind = "place.create";
  let run = 5;
  for (let n = 0; queued.length < OPS; n++) {
    const p = poisonAt.get(queued.length);
    if (p) {
      await p();
      continue;
    }
    if (run-- <= 0) {
      const roll = random();
      kind =
        places.length < 20 && roll < 0.1
          ? "place.create"
          : live().length < 40 || roll < 0.5
            ? "thing.create"
            : roll < 0.8
              ? "thing.update"
              : roll < 0.97
                ? "thing.move"
                : "thing.delete";
      run = 5 + Math.floor(random() * 35);
    }
    const alive = live();
    if (kind === "place.create" && places.length < 20) {
      const id = uuidv7();
      places.push(id);
      await queue({ name: "place.create", locationId: loc, args: { id, name: `Shelf ${places.length}` } });
    } else if (kind === "thing.create" || kind === "place.create" || alive.length < 2) {
      const id = uuidv7();
      const placeId = places[Math.floor(random() * places.length)]!;
      things.set(id, { version: 1, name: `Thing ${n}`, placeId });
      await queue({ name: "thing.create", locationId: loc, args: { id, name: `Thing ${n}`, placeId } });
    } else {
      const id = alive[Math.floor(random() * alive.length)]!;
      const t = things.get(id)!;
      if (kind === "thing.update") {
        const name = `Thing ${n} renamed`;
        await queue({ name: "thing.update", locationId: loc, args: { id, patch: { name } }, baseVersion: t.version });
        things.set(id, { ...t, version: t.version + 1, name });
      } else if (kind === "thing.move") {
        const placeId = places[Math.floor(random() * places.length)]!;
        await queue({ name: "thing.move", locationId: loc, args: { id, placeId }, baseVersion: t.version });
        things.set(id, { ...t, version: t.version + 1, placeId });
      } else {
        await queue({ name: "thing.delete", locationId: loc, args: { id }, baseVersion: t.version });
        things.set(id, null);
      }
    }
  }
  vi.useRealTimers();
  // Meanwhile, online, the owner renamed the ladder.
  expect((await owner.patch(`/api/v1/things/${ladder.body.id}`, { name: "Old ladder", rowVersion: 1 })).status).toBe(200);

  // Back online: the pusher runs until the outbox is idle, waiting out what it is told to wait out.
  const started = Date.now();
  const pace: PushPace = { value: BATCH_SIZE };
  const outcomes: Record<PushOutcome["kind"], number> = { idle: 0, pushed: 0, retry: 0, smaller: 0, blocked: 0 };
  for (let i = 0; i < 400; i++) {
    const outcome = await pushOnce(device, "offline-week-device", pace);
    outcomes[outcome.kind]++;
    if (outcome.kind === "idle") break;
    expect(outcome.kind, JSON.stringify(outcome)).not.toBe("blocked");
    if (outcome.kind === "retry") await sleep(Math.min(outcome.retryAfterMs ?? 500, 2000));
  }
  const seconds = (Date.now() - started) / 1000;
  expect(outcomes.idle).toBe(1);

  // The device: nothing pending; only the op the server could not read is set aside.
  const outbox = await device.outbox.toArray();
  const rejectedIds = outbox.filter((e) => e.state === "rejected").map((e) => e.op.id);
  expect(outbox.filter((e) => e.state === "pending")).toEqual([]);
  expect(rejectedIds).toEqual(poison.filter((p) => p.expect.includes("rejected")).map((p) => p.id));

  // The server: every other op has its one verdict, applied or dropped into a sync_drop item.
  const records = await rows<{
    op_id: string;
    status: string;
    reason: string | null;
    item_kind: string | null;
    item_op: string | null;
    item_location: string | null;
    captured_at: string | null;
  }>(
    svc.database.db,
    sql`SELECT s.op_id, s.result->>'status' AS status, s.result->>'reason' AS reason, i.kind AS item_kind,
               i.payload->'syncDrop'->'op'->>'id' AS item_op, i.location_id AS item_location, i.captured_at::text AS captured_at
          FROM sync_ops s LEFT JOIN inbox_items i ON i.id = (s.result->>'inboxItemId')::uuid
         WHERE s.user_id = ${member.userId}`,
  );
  const verdict = new Map(records.map((r) => [r.op_id, r]));
  const applied = records.filter((r) => r.status === "applied");
  const dropped = records.filter((r) => r.status === "dropped");
  const unaccounted = queued.filter((id) => !verdict.has(id) && !rejectedIds.includes(id));
  expect(unaccounted).toEqual([]);
  expect(records.filter((r) => !queued.includes(r.op_id))).toEqual([]);
  // Each drop became one sync_drop item holding the whole op (DR2), dated when the op was made.
  expect(dropped.filter((r) => r.item_kind !== "sync_drop" || r.item_op !== r.op_id)).toEqual([]);
  expect(dropped.filter((r) => new Date(r.captured_at!).getTime() > Date.now() - 5 * 24 * 3600 * 1000)).toEqual([]);
  const byPoison = poison.map((p) => ({
    what: p.what,
    got: rejectedIds.includes(p.id!) ? "rejected" : (verdict.get(p.id!)?.reason ?? verdict.get(p.id!)?.status),
  }));
  expect(byPoison.filter((p, i) => !poison[i]!.expect.includes(p.got ?? ""))).toEqual([]);
  // Only the poison ops failed, and the invisible location's drop went to the person's own location (DR3).
  expect(dropped.map((r) => r.op_id).sort()).toEqual(
    poison
      .filter((p) => !p.expect.includes("rejected"))
      .map((p) => p.id!)
      .sort(),
  );
  expect(verdict.get(poison.find((p) => p.expect.includes("not_visible"))!.id!)?.item_location).toBe(personalLoc);
  expect(applied.length + dropped.length + rejectedIds.length).toBe(OPS);

  // What was applied is what the device holds: names, places, versions, deletions.
  const server = await rows<{ id: string; name: string; place_id: string; row_version: number; deleted: boolean }>(
    svc.database.db,
    sql`SELECT id, name, place_id, row_version, deleted_at IS NOT NULL AS deleted FROM things WHERE location_id = ${loc} AND created_by = ${member.userId}`,
  );
  const onServer = new Map(server.map((t) => [t.id, t]));
  const differing = [...things].filter(([id, t]) => {
    const s = onServer.get(id);
    return !s || (t === null ? !s.deleted : s.deleted || s.name !== t.name || s.place_id !== t.placeId || s.row_version !== t.version);
  });
  expect(differing.slice(0, 5)).toEqual([]);
  expect(server.length).toBe(things.size);
  expect(
    (await rows<{ n: number }>(svc.database.db, sql`SELECT count(*)::int AS n FROM places WHERE id IN (SELECT unnest(${`{${places.join(",")}}`}::uuid[]))`))[0]!
      .n,
  ).toBe(places.length);
  expect((await owner.get(`/api/v1/things/${ladder.body.id}`)).body.name).toBe("Old ladder");

  const reasons = dropped.map((r) => r.reason ?? "?").sort();
  console.log(
    `offline week (${process.env.TEST_DATABASE_URL ? "PostgreSQL" : "PGlite"}): ${OPS} ops queued 7 days ago, synced in ${seconds.toFixed(1)} s ` +
      `(${outcomes.pushed} pushes, ${outcomes.smaller} halvings, ${outcomes.retry} retries): applied ${applied.length}, dropped ${dropped.length} (${reasons.join(", ")}), ` +
      `set aside ${rejectedIds.length}, pending 0; ${things.size} things, ${places.length} places`,
  );
});

/** `{a: {a: ... "deep"}}`, `depth` objects deep. */
function nested(depth: number): unknown {
  let v: unknown = "deep";
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}
