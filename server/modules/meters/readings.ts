/**
 * reading.capture: a counter read off on the spot (often with no signal), with an optional photo
 * proof. Every reading is kept; one that does not fit its neighbours (`implausible`, in
 * shared/meter-rules.ts so the app warns by the same rule before saving) is kept
 * with status `review` and goes to the inbox as a `reading` item, in the same segment.
 */
import { newInboxItem } from "../../commands/inbox-items.js";
import { Decimal } from "decimal.js";
import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import { implausible, type Neighbour } from "../../../shared/meter-rules.js";
import { readingCaptureArgs, type InboxReading, type ReadingCaptureArgs } from "../../../shared/meters.js";
import { lockRows } from "../../commands/bulk.js";
import { SegmentChanges } from "../../commands/segment.js";
import { defineCommand, type Op } from "../../commands/types.js";
import { rows, sql, type Tx } from "../../db/client.js";
import { files, inboxItems, meters, readings, things } from "../../db/schema/index.js";
import { GoneError, NotFoundError } from "../../errors/classes.js";
import { decimalOut } from "./estimate.js";
import { thumbUrl } from "../files/read.js";

interface Found {
  op: number;
  side: "before" | "after";
  id: string;
  value: string;
  offset: string;
  taken_at: string;
}

/**
 * For each op, the nearest readings of its meter on either side of its takenAt that are not
 * rejected, in one statement. A reading at the very same instant counts as before it.
 */
async function neighboursInDb(tx: Tx, ops: Op<ReadingCaptureArgs>[]): Promise<Map<number, { before?: Neighbour; after?: Neighbour }>> {
  const wanted = ops.map((o, i) => ({ i, m: o.args.meterId.toLowerCase(), t: o.args.takenAt }));
  const found = await rows<Found>(
    tx,
    sql`SELECT w.i AS op, n.side, n.id::text AS id, n.value::text AS value, n."offset"::text AS "offset",
          to_char(n.taken_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS taken_at
        FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS w(i int, m uuid, t timestamptz)
        CROSS JOIN LATERAL (
          (SELECT 'before' AS side, r.id, r.value, r."offset", r.taken_at FROM readings r
            WHERE r.meter_id = w.m AND r.status <> 'rejected' AND r.deleted_at IS NULL AND r.taken_at <= w.t
            ORDER BY r.taken_at DESC, r.id DESC LIMIT 1)
          UNION ALL
          (SELECT 'after', r.id, r.value, r."offset", r.taken_at FROM readings r
            WHERE r.meter_id = w.m AND r.status <> 'rejected' AND r.deleted_at IS NULL AND r.taken_at > w.t
            ORDER BY r.taken_at ASC, r.id ASC LIMIT 1)
        ) AS n`,
  );
  const out = new Map<number, { before?: Neighbour; after?: Neighbour }>();
  for (const f of found) {
    const sides = out.get(f.op) ?? {};
    sides[f.side] = { id: f.id, value: f.value, offset: f.offset, takenAt: new Date(f.taken_at) };
    out.set(f.op, sides);
  }
  return out;
}

/** The nearer of two candidates on one side (`before`: the later one; `after`: the earlier one). */
function nearer(side: "before" | "after", a: Neighbour | undefined, b: Neighbour | undefined): Neighbour | undefined {
  if (!a || !b) return a ?? b;
  const later = a.takenAt.getTime() >= b.takenAt.getTime() ? a : b;
  return side === "before" ? later : later === a ? b : a;
}

/** A neighbour as the reviewer reads it: the value as it was read off the counter, like the reading's own. */
const shown = (n: Neighbour) => ({ value: decimalOut(n.value), takenAt: n.takenAt.toISOString() });

export const readingCapture = defineCommand<ReadingCaptureArgs>({
  name: "reading.capture",
  args: readingCaptureArgs,
  minRole: "member",
  refs: (a) => [a.meterId, a.fileId],
  creates: true,
  async run(ctx, ops) {
    const meterIds = [...new Set(ops.map((o) => o.args.meterId.toLowerCase()))];
    const fileIds = [...new Set(ops.flatMap((o) => (o.args.fileId ? [o.args.fileId.toLowerCase()] : [])))];
    // The meters are locked: two devices pushing readings of one meter at once are checked one
    // after the other, each against what the other wrote.
    const [meterRows, fileRows, fromDb, goneThings] = await Promise.all([
      lockRows(ctx.tx, meters, meterIds, ["locationId", "thingId", "label", "unit", "offset", "maxPerDay", "deletedAt"]),
      fileIds.length
        ? ctx.tx
            .select({ id: files.id, locationId: files.locationId })
            .from(files)
            .where(and(inArray(files.id, fileIds), isNull(files.deletedAt)))
        : Promise.resolve([]),
      neighboursInDb(ctx.tx, ops),
      // A reading of a meter whose thing was deleted meanwhile (read offline before the delete
      // arrived) is refused as gone: it becomes a sync_drop item the person sees, rather than a
      // reading nobody can reach.
      ctx.tx
        .select({ id: meters.id })
        .from(meters)
        .innerJoin(things, eq(things.id, meters.thingId))
        .where(and(inArray(meters.id, meterIds), isNotNull(things.deletedAt))),
    ]);
    const thingGone = new Set(goneThings.map((m) => m.id));
    const meterById = new Map(meterRows.map((m) => [m.id, m]));
    const fileLocation = new Map(fileRows.map((f) => [f.id, f.locationId]));
    /** Readings written by earlier ops of this segment, by meter: later ops compare with them too. */
    const written = new Map<string, Neighbour[]>();
    const changes = new SegmentChanges(ctx);
    ops.forEach(({ args, input }, i) => {
      const meter = meterById.get(args.meterId.toLowerCase());
      if (!meter || meter.deletedAt || meter.locationId !== input.locationId) return changes.refuse(new NotFoundError("meter"));
      if (thingGone.has(meter.id)) return changes.refuse(new GoneError("thing"));
      const fileId = args.fileId?.toLowerCase() ?? null;
      if (fileId && fileLocation.get(fileId) !== input.locationId) return changes.refuse(new NotFoundError("file"));
      const r: Neighbour = { id: args.id, value: new Decimal(args.value).toFixed(3), offset: meter.offset, takenAt: new Date(args.takenAt) };
      const db = fromDb.get(i) ?? {};
      const mine = written.get(meter.id) ?? [];
      const t = r.takenAt.getTime();
      const before = nearer(
        "before",
        db.before,
        mine.filter((n) => n.takenAt.getTime() <= t).reduce<Neighbour | undefined>((a, n) => nearer("before", a, n), undefined),
      );
      const after = nearer(
        "after",
        db.after,
        mine.filter((n) => n.takenAt.getTime() > t).reduce<Neighbour | undefined>((a, n) => nearer("after", a, n), undefined),
      );
      const reason = implausible(r, before, after, meter.maxPerDay);
      written.set(meter.id, [...mine, r]);
      changes.insert(readings, {
        id: args.id,
        locationId: input.locationId,
        meterId: meter.id,
        value: r.value,
        offset: meter.offset,
        takenAt: r.takenAt,
        fileId,
        status: reason ? "review" : "ok",
        reason,
        createdBy: ctx.actor.userId,
        rowVersion: 1,
        createdAt: ctx.now,
        updatedAt: ctx.now,
        deletedAt: null,
      });
      if (reason) {
        const reading: InboxReading = {
          meter: { id: meter.id, label: meter.label, unit: meter.unit },
          readingId: args.id,
          value: decimalOut(args.value),
          takenAt: r.takenAt.toISOString(),
          reason,
          neighbours: { ...(before ? { before: shown(before) } : {}), ...(after ? { after: shown(after) } : {}) },
          proofThumbUrl: fileId ? thumbUrl(fileId) : null,
        };
        changes.insert(inboxItems, readingItem(ctx.now, input.at ? new Date(input.at) : ctx.now, input.locationId, meter.thingId, ctx.actor.userId, reading));
      }
      changes.applied(args.id, 1, null);
    });
    return changes.write();
  },
});

/** A `reading` inbox item (an implausible reading, or a nudge: nudges.ts). */
export function readingItem(now: Date, capturedAt: Date, locationId: string, thingId: string, createdBy: string | null, reading: InboxReading) {
  return newInboxItem({ locationId, kind: "reading", thingId, capturedAt, createdBy, payload: { reading } }, now);
}
