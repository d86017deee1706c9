/**
 * Compaction of the change log (sync/SPEC.md SH10, SH7): the periodic job's own function against
 * the real migrations, and readers through the real @electric-sql/client before and after it.
 */
import { ShapeStream, isChangeMessage, isControlMessage, type Row } from "@electric-sql/client";
import { describe, expect, vi } from "vitest";
import { v7 as uuidv7 } from "uuid";
import { rows, sql } from "../../../server/db/client.js";
import { compactSyncLog, type CompactionRun } from "../../../server/sync/compaction.js";
import type { TestService } from "../../support/app.js";
import { apiTest as test } from "../../support/fixtures.js";
import type { Client } from "../../support/members.js";
import { op, push } from "../../support/push.js";

const DAY = 86_400_000;
/** A run that removes superseded entries only: every tombstone is younger than a year. */
const compact = (svc: TestService) => compactSyncLog(svc.database.db, { tombstoneMaxAgeMs: 365 * DAY });
/** A run whose retention is over for every tombstone made so far. */
const compactAll = (svc: TestService) => compactSyncLog(svc.database.db, { tombstoneMaxAgeMs: DAY, now: new Date(Date.now() + 2 * DAY) });

interface Entry {
  seq: number;
  op: string;
  locationId: string | null;
  accountId: string | null;
  name: string | null;
}

const logOf = async (svc: TestService, id: string): Promise<Entry[]> =>
  (
    await rows<{ seq: string; op: string; location_id: string | null; account_id: string | null; name: string | null }>(
      svc.database.db,
      sql`SELECT seq::text, op, location_id::text, account_id::text, "row"->>'name' AS name FROM sync_log WHERE row_id = ${id}::uuid ORDER BY seq`,
    )
  ).map((r) => ({ seq: Number(r.seq), op: r.op, locationId: r.location_id, accountId: r.account_id, name: r.name }));

const logSize = async (svc: TestService) => Number((await rows<{ n: string }>(svc.database.db, sql`SELECT count(*)::text AS n FROM sync_log`))[0]!.n);

async function createThing(c: Client, loc: string, name: string): Promise<string> {
  const id = uuidv7();
  const res = await push(c, [op({ name: "thing.create", locationId: loc, args: { id, name } })]);
  expect(res.body.results[0].status).toBe("applied");
  return id;
}

async function renameThing(c: Client, loc: string, id: string, names: string[], from = 1): Promise<void> {
  const res = await push(
    c,
    names.map((name, i) => op({ name: "thing.update", locationId: loc, args: { id, patch: { name } }, baseVersion: from + i })),
  );
  expect(res.body.results.map((r: { status: string }) => r.status)).toEqual(names.map(() => "applied"));
}

/** As unpacking a box of a move does (server/modules/moves/): the row keeps its id and changes location. */
async function moveThing(svc: TestService, id: string, target: string): Promise<void> {
  await svc.database.db.execute(
    sql`UPDATE things SET location_id = ${target}, place_id = (SELECT id FROM places WHERE location_id = ${target} AND is_unplaced), row_version = row_version + 1 WHERE id = ${id}`,
  );
}

const cookieOf = (c: Client) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

interface Followed {
  rows: Map<string, Row>;
  offset: string;
  handle: string | undefined;
  refetched: boolean;
}

/**
 * Reads a shape with the real client until it is up to date, folding its messages as a device
 * does (the last message of a row decides, a must-refetch drops what came before): from scratch,
 * or resumed from `from` onto the rows it held.
 */
function follow(svc: TestService, c: Client, name: string, from?: Followed): Promise<Followed> {
  const held = new Map(from?.rows ?? []);
  // Stopped at up-to-date: a stream left polling would meet the next test's compaction.
  const stop = new AbortController();
  const stream = new ShapeStream<Row>({
    url: `${svc.url}/api/v1/sync/shape/${name}`,
    headers: { cookie: cookieOf(c) },
    signal: stop.signal,
    ...(from?.handle ? { offset: from.offset as `${number}_${number}`, handle: from.handle } : {}),
  });
  let refetched = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} not up to date in 15 s`)), 15_000);
    stream.subscribe(
      (messages) => {
        for (const m of messages) {
          if (isChangeMessage(m)) {
            if (m.headers.operation === "delete") held.delete(m.key);
            else held.set(m.key, { ...held.get(m.key), ...m.value });
          } else if (isControlMessage(m) && m.headers.control === "must-refetch") {
            refetched = true;
            held.clear();
          } else if (isControlMessage(m) && m.headers.control === "up-to-date") {
            clearTimeout(timer);
            stream.unsubscribeAll();
            stop.abort();
            resolve({ rows: held, offset: stream.lastOffset, handle: stream.shapeHandle, refetched });
          }
        }
      },
      (err) => reject(err),
    );
  });
}

/** What a device shows: each row's id, name and version, by id. */
const view = (f: Followed) =>
  Object.fromEntries(
    [...f.rows.values()].map((r) => [r.id as string, `${r.name as string}@${r.row_version as number}`]).sort(([a], [b]) => (a! < b! ? -1 : 1)),
  );

const seqOf = (offset: string) => Number(offset.split("_")[0]);

describe("change log compaction", () => {
  test("SH10 compaction keeps the last entry of each row per location, and a moved row's delete under its old location", async ({ svc, loc, as }) => {
    const target = (await as.owner.post("/api/v1/locations", { name: "Second flat" })).body.id as string;
    const kept = await createThing(as.member, loc, "Lamp");
    await renameThing(as.member, loc, kept, ["Lamp 2", "Lamp 3", "Lamp 4"]);
    const moved = await createThing(as.member, loc, "Crate");
    await renameThing(as.member, loc, moved, ["Crate 2"]);
    await moveThing(svc, moved, target);
    await svc.database.db.execute(sql`UPDATE things SET name = 'Crate 3', row_version = row_version + 1 WHERE id = ${moved}`);
    // A registry row is its account's: logged with account_id and no location.
    const [type] = await rows<{ id: string }>(
      svc.database.db,
      sql`SELECT id FROM types WHERE account_id = (SELECT account_id FROM locations WHERE id = ${loc}) AND builtin_key = 'thing'`,
    );
    for (const name of ["Gadget", "Gizmo"]) await svc.database.db.execute(sql`UPDATE types SET name = ${name} WHERE id = ${type!.id}`);
    expect((await logOf(svc, kept)).length).toBe(4);
    expect((await logOf(svc, moved)).map((e) => e.op)).toEqual(["insert", "update", "delete", "update", "update"]);

    const run = await compact(svc);
    expect(run.skipped).toBe(false);
    expect(run.superseded).toBeGreaterThanOrEqual(3 + 3 + 1);
    expect((await logOf(svc, kept)).map((e) => [e.op, e.name, e.locationId])).toEqual([["update", "Lamp 4", loc]]);
    // The delete under the old location and the last row under the new one, in log order.
    expect((await logOf(svc, moved)).map((e) => [e.op, e.name, e.locationId])).toEqual([
      ["delete", "Crate 2", loc],
      ["update", "Crate 3", target],
    ]);
    const registry = await logOf(svc, type!.id);
    expect(registry.map((e) => [e.name, e.locationId])).toEqual([["Gizmo", null]]);
    expect(registry[0]!.accountId).not.toBeNull();
    // Below the retention, no tombstone goes and the horizon stays.
    expect(run.tombstones).toBe(0);
    expect(run.horizon).toBe(0);
  });

  test("SH10 the job is idempotent, and runs at once on several replicas remove each entry once", async ({ svc, loc, as }) => {
    const id = await createThing(as.member, loc, "Kettle");
    await renameThing(as.member, loc, id, ["Kettle 2", "Kettle 3"]);
    const before = await logSize(svc);
    const runs = await Promise.all([compact(svc), compact(svc), compact(svc)]);
    const removed = runs.reduce((n, r: CompactionRun) => n + r.superseded, 0);
    expect(removed).toBe(2);
    expect(await logSize(svc)).toBe(before - 2);
    expect((await logOf(svc, id)).map((e) => e.name)).toEqual(["Kettle 3"]);
    const again = await compact(svc);
    expect([again.superseded, again.tombstones, again.skipped]).toEqual([0, 0, false]);
    expect(await logSize(svc)).toBe(before - 2);
  });

  test("SH10 a reader from an offset after the horizon converges to the rows of a fresh snapshot", async ({ svc, loc, as }) => {
    const target = (await as.owner.post("/api/v1/locations", { name: "Third flat" })).body.id as string;
    const early = await follow(svc, as.viewer, "things");
    const a = await createThing(as.member, loc, "Anvil");
    const b = await createThing(as.member, loc, "Bucket");
    await renameThing(as.member, loc, a, ["Anvil 2", "Anvil 3", "Anvil 4"]);
    await renameThing(as.member, loc, b, ["Bucket 2"]);
    await moveThing(svc, b, target);
    const deleted = await push(as.member, [op({ name: "thing.delete", locationId: loc, args: { id: a }, baseVersion: 4 })]);
    expect(deleted.body.results[0].status).toBe("applied");
    const run = await compact(svc);
    expect(seqOf(early.offset)).toBeGreaterThanOrEqual(run.horizon);
    const warn = vi.spyOn(console, "warn");
    const resumed = await follow(svc, as.viewer, "things", early);
    const fresh = await follow(svc, as.viewer, "things");
    expect(resumed.refetched).toBe(false);
    expect(resumed.handle).toBe(early.handle);
    expect(view(resumed)).toEqual(view(fresh));
    expect(Object.keys(view(fresh))).not.toContain(a);
    expect(Object.keys(view(fresh))).not.toContain(b);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  test("SH7 SH10 a reader from an offset older than the horizon gets 409 with a new handle, and refetches to a fresh snapshot's rows", async ({
    svc,
    loc,
    as,
  }) => {
    const target = (await as.owner.post("/api/v1/locations", { name: "Fourth flat" })).body.id as string;
    const early = await follow(svc, as.viewer, "things");
    const gone = await createThing(as.member, loc, "Ladder");
    const stays = await createThing(as.member, loc, "Rope");
    await renameThing(as.member, loc, stays, ["Rope 2"]);
    await moveThing(svc, gone, target);
    const tombstone = (await logOf(svc, gone)).find((e) => e.op === "delete" && e.locationId === loc)!;
    expect(tombstone.seq).toBeGreaterThan(seqOf(early.offset));

    const run = await compactAll(svc);
    expect(run.tombstones).toBeGreaterThanOrEqual(1);
    expect(run.horizon).toBeGreaterThanOrEqual(tombstone.seq);
    // The moved row's delete under its old location is gone with the retention; its row under the new one stays.
    expect((await logOf(svc, gone)).map((e) => [e.op, e.locationId])).toEqual([["update", target]]);

    const stale = await as.viewer.get(`/api/v1/sync/shape/things?offset=${early.offset}&handle=${early.handle}`);
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual([{ headers: { control: "must-refetch" } }]);
    const handle = stale.headers.get("electric-handle")!;
    expect(handle).toBe(`${early.handle}-r${run.horizon}`);
    // A snapshot page read before the horizon is refused the same way.
    const page = await as.viewer.get(`/api/v1/sync/shape/things?offset=${seqOf(early.offset)}_1&handle=${early.handle}`);
    expect([page.status, page.headers.get("electric-handle")]).toEqual([409, handle]);
    // The new handle is the actor's from then on: the snapshot answers under it.
    const snapshot = await as.viewer.get(`/api/v1/sync/shape/things?offset=-1&handle=${handle}`);
    expect([snapshot.status, snapshot.headers.get("electric-handle")]).toEqual([200, handle]);

    const warn = vi.spyOn(console, "warn");
    const resumed = await follow(svc, as.viewer, "things", early);
    const fresh = await follow(svc, as.viewer, "things");
    expect(resumed.refetched).toBe(true);
    expect(resumed.handle).toBe(handle);
    expect(view(resumed)).toEqual(view(fresh));
    expect(Object.keys(view(resumed))).toContain(stays);
    expect(Object.keys(view(resumed))).not.toContain(gone);
    // The client took the new handle for a fresh shape, not for a stale cache.
    expect(warn).not.toHaveBeenCalled();
    // And it reads on from there without another refetch.
    await renameThing(as.member, loc, stays, ["Rope 3"], 2);
    const later = await follow(svc, as.viewer, "things", resumed);
    expect(later.refetched).toBe(false);
    expect(view(later)).toEqual(view(await follow(svc, as.viewer, "things")));
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  test("SH10 a second run past the retention removes nothing more and keeps the horizon", async ({ svc }) => {
    const first = await compactAll(svc);
    const second = await compactAll(svc);
    expect([second.superseded, second.tombstones]).toEqual([0, 0]);
    expect(second.horizon).toBe(first.horizon);
  });
});
