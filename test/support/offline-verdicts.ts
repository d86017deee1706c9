/**
 * What the server made of a device's pushed ops (test/db/sync/offline-month.test.ts): the verdict
 * of each op with its sync_drop item, and the rows the applied ops made, counted, so that an op
 * lost or applied twice shows up as a difference from what the device holds.
 */
import { rows, sql, type Queryable } from "../../server/db/client.js";
import type { DeviceView } from "./offline-work.js";

export interface Verdict {
  op_id: string;
  status: string;
  reason: string | null;
  item_kind: string | null;
  item_op: string | null;
  item_location: string | null;
  captured_ms: number | null;
  /** sync_drop items holding this op: one for a drop (DR2), none otherwise. */
  items: number;
}

const uuids = (ids: Iterable<string>) => `{${[...ids].join(",")}}`;

/** Each op's verdict by op id, the ops with more than one (doubled), and verdicts of ops the device never queued. */
export async function verdicts(db: Queryable, userId: string, queued: string[]) {
  const [records, items] = await Promise.all([
    rows<Omit<Verdict, "items">>(
      db,
      sql`SELECT s.op_id::text AS op_id, s.result->>'status' AS status, s.result->>'reason' AS reason, i.kind AS item_kind,
                 i.payload->'syncDrop'->'op'->>'id' AS item_op, i.location_id::text AS item_location,
                 (extract(epoch FROM i.captured_at) * 1000)::float8 AS captured_ms
            FROM sync_ops s LEFT JOIN inbox_items i ON i.id = (s.result->>'inboxItemId')::uuid
           WHERE s.user_id = ${userId}`,
    ),
    rows<{ op: string; n: number }>(
      db,
      sql`SELECT payload->'syncDrop'->'op'->>'id' AS op, count(*)::int AS n FROM inbox_items WHERE kind = 'sync_drop' GROUP BY 1`,
    ),
  ]);
  const itemsOf = new Map(items.map((i) => [i.op, i.n]));
  const all = records.map((r): Verdict => ({ ...r, items: itemsOf.get(r.op_id) ?? 0 }));
  const byOp = new Map(all.map((r) => [r.op_id, r]));
  const mine = new Set(queued);
  return {
    byOp,
    applied: all.filter((r) => r.status === "applied"),
    dropped: all.filter((r) => r.status === "dropped"),
    doubled: all.length === byOp.size ? [] : all.filter((r, i) => all.findIndex((o) => o.op_id === r.op_id) !== i).map((r) => r.op_id),
    strangers: all.filter((r) => !mine.has(r.op_id)).map((r) => r.op_id),
    /** Applied ops with a sync_drop item too: dropped and applied both. */
    twoVerdicts: all.filter((r) => r.status !== "dropped" && r.items > 0).map((r) => r.op_id),
  };
}

/** The server's rows of what the device made, against what the device holds. */
export async function serverCounts(db: Queryable, userId: string, locationId: string, view: DeviceView) {
  const things = await rows<{ id: string; name: string; place_id: string; row_version: number; deleted: boolean }>(
    db,
    sql`SELECT id::text AS id, name, place_id::text AS place_id, row_version, deleted_at IS NOT NULL AS deleted
          FROM things WHERE location_id = ${locationId} AND created_by = ${userId}`,
  );
  const onServer = new Map(things.map((t) => [t.id, t]));
  const differing = [...view.things].filter(([id, t]) => {
    const s = onServer.get(id);
    return !s || (t === null ? !s.deleted : s.deleted || s.name !== t.name || s.place_id !== t.placeId || s.row_version !== t.version);
  });
  const meterIds = uuids(view.meters.keys());
  const [counts] = await rows<{ places: number; meters: number; readings: number; loans: number; returned: number; drafts: number }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM places WHERE id = ANY(${uuids(view.places)}::uuid[])) AS places,
               (SELECT count(*)::int FROM meters WHERE id = ANY(${meterIds}::uuid[]) AND deleted_at IS NULL) AS meters,
               (SELECT count(*)::int FROM readings WHERE meter_id = ANY(${meterIds}::uuid[])) AS readings,
               (SELECT count(*)::int FROM loans WHERE id = ANY(${uuids(view.loans.keys())}::uuid[])) AS loans,
               (SELECT count(*)::int FROM loans WHERE id = ANY(${uuids(view.loans.keys())}::uuid[]) AND returned_at IS NOT NULL) AS returned,
               (SELECT count(*)::int FROM inbox_items WHERE kind = 'draft' AND thing_id = ANY(${uuids(view.captures)}::uuid[])) AS drafts`,
  );
  const loans = [...view.loans.values()];
  return {
    differing,
    counts: { things: things.length, deleted: things.filter((t) => t.deleted).length, ...counts! },
    expected: {
      things: view.things.size,
      deleted: [...view.things.values()].filter((t) => t === null).length,
      places: view.places.length,
      meters: view.meters.size,
      readings: [...view.meters.values()].reduce((n, m) => n + m.readings, 0),
      loans: loans.length,
      returned: loans.filter((l) => l.returned).length,
      drafts: view.captures.size,
    },
  };
}
