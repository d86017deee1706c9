/**
 * The device and the server agree after sync, whatever happened offline (issue 33): two devices of
 * one member (the app's own outbox, op files, pusher and shape followers on fake-indexeddb) queue
 * random sequences of ops while offline, picking what they change from what they show; meanwhile
 * the owner renames and deletes things and the member may lose the right to write. The two
 * devices then push in batches of random sizes, taking turns at random, so the server gets their
 * ops in another order than they were made, and refuses some (stale, deleted or missing targets, a
 * viewer). After both read their shapes again, each device's view (server rows with its waiting
 * ops on top, as the screens show it) equals the server's rows, and every refused op has its
 * sync_drop item, on the server and on each device.
 */
import "fake-indexeddb/auto";
import fc from "fast-check";
import { and, eq } from "drizzle-orm";
import { v7 as uuidv7 } from "uuid";
import { expect, vi } from "vitest";
import { getMeta, InventoryDb } from "../../../client/db/database.js";
import type { MeterRow, SyncedTableName, ThingRow } from "../../../client/db/rows.js";
import { queueLend, queueReturn } from "../../../client/ops/loans/queue.js";
import { queueMeterCreate, queueMeterUpdate, queueReading } from "../../../client/ops/meters/queue.js";
import { queueThingUpdate } from "../../../client/ops/things/queue.js";
import { RefusedHere } from "../../../client/sync/checks.js";
import { overlayLoans } from "../../../client/sync/loan-ops.js";
import { overlayMeters } from "../../../client/sync/meter-overlay.js";
import { overlay } from "../../../client/sync/optimistic.js";
import { overlayRegistries } from "../../../client/sync/optimistic-registries.js";
import { CONFIRM_SLACK_MS, enqueue, unconfirmedOps } from "../../../client/sync/outbox.js";
import { pushOnce } from "../../../client/sync/pusher.js";
import { enqueueRegistry } from "../../../client/sync/registry-enqueue.js";
import { ShapeFollower } from "../../../client/sync/shapes.js";
import { rows, sql } from "../../../server/db/client.js";
import { memberships } from "../../../server/db/schema/index.js";
import type { TestService } from "../../support/app.js";
import { serviceTest as test } from "../../support/fixtures.js";
import { sleep } from "../../support/device-load.js";
import { locationWithRoles, type Client } from "../../support/members.js";

const SHAPES: SyncedTableName[] = ["memberships", "things", "places", "inbox", "meters", "readings", "loans", "contacts", "tags"];

let svc: TestService;
let loc: string;
let account: string;
let member: Client;
let owner: Client;

test.beforeAll(async ({ svc: service }) => {
  svc = service;
  const team = await locationWithRoles(svc);
  loc = team.locationId;
  ({ member, owner } = team.as);
  account = (await rows<{ account_id: string }>(svc.database.db, sql`SELECT account_id FROM locations WHERE id = ${loc}`))[0]!.account_id;
  // The app on the device: its API calls go to the test server with the member's session cookie
  // and the app's Origin, as the browser adds them.
  const cookie = [...member.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const realFetch = globalThis.fetch;
  vi.stubGlobal("location", { origin: svc.url });
  vi.stubGlobal("fetch", (input: string | URL | Request, init: RequestInit = {}) =>
    realFetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), cookie, origin: svc.config.publicUrl.origin } }),
  );
});

test.afterAll(() => {
  vi.unstubAllGlobals();
});

/** One device: its store and the shape followers that fill it. */
class Device {
  private readonly ac = new AbortController();
  private readonly followers: ShapeFollower[];
  readonly queued: string[] = [];
  readonly errors: Error[] = [];
  /** The shapes' handles after the first read: a new one means the shape was read again from a snapshot. */
  private firstHandles = "";
  constructor(
    readonly db: InventoryDb,
    readonly clientId: string,
  ) {
    this.followers = SHAPES.map((name) => new ShapeFollower(db, name, false, (err) => this.errors.push(err)));
  }
  static async open(): Promise<Device> {
    const id = uuidv7();
    const d = new Device(new InventoryDb(`device-ops-${id}`), `device-${id}`);
    for (const f of d.followers) await f.start(d.ac.signal);
    await d.read();
    d.firstHandles = await d.handles();
    return d;
  }
  /**
   * Reads every shape up to the server's present. A catch-up may end on an answer the stream had
   * asked for before it paused, so, as the engine does for an applied op still waiting for its
   * txid, it reads again: until a round brings nothing new and no applied op waits.
   */
  async read(): Promise<void> {
    const waiting = () => this.db.outbox.filter((e) => e.state === "applied").count();
    for (let round = 0; round < 6; round++) {
      const before = this.followers.reduce((n, f) => n + f.changes, 0);
      await Promise.all(this.followers.map((f) => f.catchUp(15_000)));
      const changed = this.followers.reduce((n, f) => n + f.changes, 0) !== before;
      if (round > 0 && !changed && !(await waiting())) return;
    }
    // A shape read again from a snapshot (its scope changed: SH7) carries no txids; the app then
    // retires applied ops once a read that began CONFIRM_SLACK_MS after them is up to date.
    if ((await waiting()) && (await this.handles()) !== this.firstHandles) {
      await sleep(CONFIRM_SLACK_MS + 500);
      await Promise.all(this.followers.map((f) => f.catchUp(15_000)));
    }
  }
  private async handles(): Promise<string> {
    return JSON.stringify(await Promise.all(SHAPES.map(async (name) => (await getMeta<{ handle: string }>(this.db, `shape:${name}`))?.handle)));
  }
  async close(): Promise<void> {
    this.ac.abort();
    this.db.close();
    await this.db.delete();
  }
  /** The location as this device's screens show it: server rows with its waiting ops replayed. */
  async view() {
    const db = this.db;
    const ops = (await unconfirmedOps(db)).filter((o) => o.locationId === loc);
    const [things, places, inbox, meters, readings, loans, contacts, tags] = await Promise.all([
      db.things.where("locationId").equals(loc).toArray(),
      db.places.where("locationId").equals(loc).toArray(),
      db.inbox.where("locationId").equals(loc).toArray(),
      db.meters.toArray(),
      db.readings.toArray(),
      db.loans.toArray(),
      db.contacts.toArray(),
      db.tags.toArray(),
    ]);
    const local = overlay({ things, places, inbox }, ops);
    const m = overlayMeters({ meters: meters.filter((r) => r.locationId === loc), readings: readings.filter((r) => r.locationId === loc), inbox }, ops);
    const l = overlayLoans({ loans: loans.filter((r) => r.locationId === loc), contacts }, ops, () => "");
    const r = overlayRegistries({ tags }, ops, (id) => (id === loc ? account : undefined));
    return {
      things: [...local.things.values()].filter((t) => !t.deletedAt),
      places: [...local.places.values()].filter((p) => !p.deletedAt),
      inbox: [...local.inbox.values()],
      meters: [...m.meters.values()],
      readings: [...m.readings.values()],
      loans: [...l.loans.values()].filter((x) => !x.deletedAt),
      contacts: [...l.contacts.values()].filter((c) => c.accountId === account),
      tags: [...r.tags.values()].filter((t) => t.accountId === account),
    };
  }
}

const KINDS = [
  "thing.create",
  "thing.update",
  "thing.update",
  "thing.move",
  "thing.delete",
  "place.create",
  "place.update",
  "tag.create",
  "meter.create",
  "meter.update",
  "reading.capture",
  "loan.create",
  "loan.return",
  // Someone else, online meanwhile.
  "owner.rename",
  "owner.delete",
] as const;

/** One thing a person does on a device (or the owner does online), with what it picks among what the device shows. */
interface Step {
  kind: (typeof KINDS)[number];
  device: number;
  pick: number;
  word: string;
}

const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom(...KINDS),
  device: fc.nat({ max: 1 }),
  pick: fc.nat({ max: 1000 }),
  word: fc.stringMatching(/^[a-z]{1,6}$/),
});

const scenario = fc.record({
  steps: fc.array(step, { minLength: 4, maxLength: 14 }),
  /** Who pushes next and how many ops at most: device index and batch size. */
  turns: fc.array(fc.tuple(fc.nat({ max: 1 }), fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 8 }),
  /** The push before which the owner makes the member a viewer (none: the member stays a member). */
  demoteBefore: fc.option(fc.nat({ max: 2 }), { nil: undefined, freq: 2 }),
});

const at = <T>(xs: readonly T[], pick: number): T | undefined => (xs.length ? xs[pick % xs.length] : undefined);
const base = (row: { rowVersion: number }) => (row.rowVersion > 0 ? { baseVersion: row.rowVersion } : {});

/** Queues what the step does on its device, choosing from what that device shows (as a person on its screens would). */
async function perform(devices: Device[], s: Step): Promise<void> {
  const d = devices[s.device]!;
  const db = d.db;
  const v = await d.view();
  // Newest first, so a small pick names a row this run made (the refusals scenario counts on it).
  const thing = at([...v.things].reverse(), s.pick);
  const place = at(v.places, s.pick);
  const track = (op: { id: string } | void) => {
    if (op) d.queued.push(op.id);
  };
  try {
    switch (s.kind) {
      case "thing.create":
        return track(
          await enqueue(db, { name: "thing.create", locationId: loc, args: { id: uuidv7(), name: s.word, ...(place ? { placeId: place.id } : {}) } }),
        );
      case "thing.update": {
        if (!thing) return;
        const tag = at(v.tags, s.pick);
        const patches = [{ name: s.word }, { colour: s.word }, { quantity: String((s.pick % 5) + 1) }, ...(tag ? [{ tagIds: [tag.id] }] : [])];
        return track(await queueThingUpdate(db, loc, thing, at(patches, s.pick >> 3)!));
      }
      case "thing.move":
        if (!thing || !place) return;
        return track(await enqueue(db, { name: "thing.move", locationId: loc, args: { id: thing.id, placeId: place.id }, ...base(thing) }));
      case "thing.delete":
        if (!thing) return;
        return track(await enqueue(db, { name: "thing.delete", locationId: loc, args: { id: thing.id }, ...base(thing) }));
      case "place.create":
        return track(
          await enqueue(db, {
            name: "place.create",
            locationId: loc,
            args: { id: uuidv7(), name: s.word, ...(place && s.pick % 2 ? { parentId: place.id } : {}) },
          }),
        );
      case "place.update":
        if (!place || place.isUnplaced) return;
        return track(await enqueue(db, { name: "place.update", locationId: loc, args: { id: place.id, patch: { name: s.word } }, ...base(place) }));
      case "tag.create":
        return track(await enqueueRegistry(db, { name: "tag.create", locationId: loc, args: { id: uuidv7(), name: `${s.word}${s.pick}` } }));
      case "meter.create":
        if (!thing) return;
        return track(await queueMeterCreate(db, loc, { thingId: thing.id, kind: "electricity", unit: "kWh", label: s.word }));
      case "meter.update": {
        const meter = at<MeterRow>(v.meters, s.pick);
        if (!meter) return;
        return track(await queueMeterUpdate(db, meter, { label: s.word }));
      }
      case "reading.capture": {
        const meter = at(v.meters, s.pick);
        if (!meter) return;
        const latest = Math.max(0, ...v.readings.filter((r) => r.meterId === meter.id).map((r) => Number(r.value)));
        return track(await queueReading(db, meter, { value: String(latest + (s.pick % 50)), takenAt: new Date().toISOString() }));
      }
      case "loan.create": {
        const lendable = v.things.filter((t) => !v.loans.some((l) => !l.returnedAt && l.thingId === t.id));
        const t = at<ThingRow>(lendable, s.pick);
        if (!t) return;
        // Part of a quantity, now and then: the device splits the thing as the server will.
        const part = Number(t.quantity) > 1 && s.pick % 2 ? { quantity: "1" } : {};
        return track(await queueLend(db, t, { direction: "out", person: { name: s.word }, ...part }));
      }
      case "loan.return": {
        const loan = at(
          v.loans.filter((l) => !l.returnedAt),
          s.pick,
        );
        if (!loan) return;
        return track(await queueReturn(db, loan));
      }
      case "owner.rename": {
        // Someone else, online meanwhile: the device's later edits of this thing are now behind.
        if (!thing || thing.rowVersion === 0) return;
        await owner.patch(`/api/v1/things/${thing.id}`, { name: `${s.word} (owner)` });
        return;
      }
      case "owner.delete":
        if (!thing || thing.rowVersion === 0) return;
        await owner.delete(`/api/v1/things/${thing.id}`);
        return;
    }
  } catch (err) {
    // What the device itself refuses is never queued (sync/SPEC.md DR7): nothing to agree on.
    if (!(err instanceof RefusedHere)) throw err;
  }
}

const setRole = (role: "member" | "viewer") =>
  svc.database.db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.locationId, loc), eq(memberships.userId, member.userId)));

/** The server's rows of the location, as the views name their columns. */
async function serverRows() {
  const q = <T>(query: ReturnType<typeof sql>) => rows<T>(svc.database.db, query);
  return {
    things: await q(
      sql`SELECT id, name, colour, quantity::text AS quantity, place_id AS "placeId", container_id AS "containerId", tag_ids AS "tagIds", lifecycle, row_version AS "rowVersion"
            FROM things WHERE location_id = ${loc} AND deleted_at IS NULL`,
    ),
    places: await q(sql`SELECT id, name, parent_id AS "parentId", row_version AS "rowVersion" FROM places WHERE location_id = ${loc} AND deleted_at IS NULL`),
    meters: await q(
      sql`SELECT id, thing_id AS "thingId", label, unit, row_version AS "rowVersion" FROM meters WHERE location_id = ${loc} AND deleted_at IS NULL`,
    ),
    readings: await q(sql`SELECT id, meter_id AS "meterId", value::text AS value, status FROM readings WHERE location_id = ${loc} AND deleted_at IS NULL`),
    loans: await q(
      sql`SELECT id, thing_id AS "thingId", contact_id AS "contactId", returned_at IS NOT NULL AS returned, row_version AS "rowVersion"
            FROM loans WHERE location_id = ${loc} AND deleted_at IS NULL`,
    ),
    contacts: await q(sql`SELECT id, name FROM contacts WHERE account_id = ${account} AND deleted_at IS NULL`),
    tags: await q(sql`SELECT id, name FROM tags WHERE account_id = ${account} AND deleted_at IS NULL`),
  };
}

type Rows = Awaited<ReturnType<typeof serverRows>>;

/** The same columns of a device's view, both sorted by id. */
function project(v: Awaited<ReturnType<Device["view"]>>): Rows {
  return {
    things: v.things.map((t) => ({
      id: t.id,
      name: t.name,
      colour: t.colour,
      quantity: t.quantity,
      placeId: t.placeId,
      containerId: t.containerId,
      tagIds: t.tagIds,
      lifecycle: t.lifecycle,
      rowVersion: t.rowVersion,
    })),
    places: v.places.map((p) => ({ id: p.id, name: p.name, parentId: p.parentId, rowVersion: p.rowVersion })),
    meters: v.meters.map((m) => ({ id: m.id, thingId: m.thingId, label: m.label, unit: m.unit, rowVersion: m.rowVersion })),
    readings: v.readings.map((r) => ({ id: r.id, meterId: r.meterId, value: r.value, status: r.status })),
    loans: v.loans.map((l) => ({ id: l.id, thingId: l.thingId, contactId: l.contactId, returned: l.returnedAt !== null, rowVersion: l.rowVersion })),
    contacts: v.contacts.map((c) => ({ id: c.id, name: c.name })),
    tags: v.tags.map((t) => ({ id: t.id, name: t.name })),
  };
}

const sorted = (r: Rows): Rows =>
  Object.fromEntries(Object.entries(r).map(([k, xs]) => [k, [...(xs as { id: string }[])].sort((a, b) => (a.id < b.id ? -1 : 1))])) as Rows;

/**
 * A scenario that meets each refusal the test is about, run before the random ones: device 0
 * renames the newest thing while the owner renames it too (stale); device 1 renames the next one,
 * which the owner deletes (deleted); after two pushes the member becomes a viewer, and device 1's
 * new place is refused (forbidden).
 */
const refusals = {
  steps: [
    { kind: "thing.update", device: 0, pick: 0, word: "alpha" },
    { kind: "owner.rename", device: 0, pick: 0, word: "beta" },
    { kind: "thing.update", device: 1, pick: 1, word: "gamma" },
    { kind: "owner.delete", device: 1, pick: 1, word: "delta" },
    { kind: "place.create", device: 1, pick: 0, word: "eps" },
  ] satisfies Step[],
  turns: [
    [1, 1],
    [0, 1],
  ] as [number, number][],
  demoteBefore: 2,
};

/** Drop reasons met over all runs: the scenarios must reach the refusals they are about. */
const reasons = new Set<string>();

test("after sync, each device's view of random offline ops (reordered, some refused) equals the server's rows, and every refused op has its sync_drop item", async () => {
  await fc.assert(
    fc.asyncProperty(scenario, async ({ steps, turns, demoteBefore }) => {
      // What the devices start from: a few things in two places, made online by the owner.
      const shelves = [];
      for (const name of ["Shelf A", "Shelf B"]) shelves.push((await owner.post(`/api/v1/locations/${loc}/places`, { name })).body.id as string);
      for (const [i, name] of ["Drill", "Rope", "Tent"].entries())
        await owner.post(`/api/v1/locations/${loc}/things`, { name, placeId: shelves[i % 2], quantity: "3" });
      const devices = [await Device.open(), await Device.open()];
      try {
        for (const s of steps) await perform(devices, s);

        // Back online: the devices take turns pushing, batches of random sizes, until both are done.
        let pushes = 0;
        let demoted = false;
        const idle = new Set<Device>();
        for (let turn = 0; idle.size < devices.length && turn < 500; turn++) {
          const [which, size] = turns[turn % turns.length]!;
          const d = devices[(which + Math.floor(turn / turns.length)) % devices.length]!;
          if (pushes === demoteBefore && !demoted) {
            await setRole("viewer");
            demoted = true;
          }
          const outcome = await pushOnce(d.db, d.clientId, { value: size });
          expect(outcome.kind, JSON.stringify(outcome)).toMatch(/^(idle|pushed)$/);
          // Pushing queues nothing: a device with nothing left to push stays so.
          if (outcome.kind === "idle") idle.add(d);
          if (outcome.kind === "pushed") pushes++;
        }
        for (const d of devices) await d.read();

        const server = sorted(await serverRows());
        const verdicts = await rows<{ op_id: string; status: string; reason: string | null; item: string | null; item_op: string | null }>(
          svc.database.db,
          sql`SELECT s.op_id, s.result->>'status' AS status, s.result->>'reason' AS reason, i.id AS item, i.payload->'syncDrop'->'op'->>'id' AS item_op
                FROM sync_ops s LEFT JOIN inbox_items i ON i.id = (s.result->>'inboxItemId')::uuid
               WHERE s.op_id IN (SELECT unnest(${`{${devices.flatMap((d) => d.queued).join(",")}}`}::uuid[]))`,
        );
        for (const d of devices) {
          // Nothing left to push, nothing set aside: each op was applied or dropped.
          expect(await d.db.outbox.toArray()).toEqual([]);
          expect(d.errors).toEqual([]);
          expect(sorted(project(await d.view()))).toEqual(server);
          const held = new Set((await d.db.inbox.toArray()).map((i) => i.id));
          for (const id of d.queued) {
            const v = verdicts.find((r) => r.op_id === id);
            expect(v?.status, id).toMatch(/^(applied|dropped)$/);
            if (v?.status !== "dropped") continue;
            reasons.add(v.reason ?? "?");
            // The refused op is kept whole in its sync_drop item (DR2), which the device holds.
            expect(v.item_op).toBe(id);
            expect(held.has(v.item!), `sync_drop of ${id} on the device`).toBe(true);
          }
        }
      } finally {
        await setRole("member");
        for (const d of devices) await d.close();
      }
    }),
    { numRuns: 6, endOnFailure: true, examples: [[refusals]] },
  );
  expect([...reasons]).toEqual(expect.arrayContaining(["deleted", "forbidden", "stale"]));
}, 240_000);
