/**
 * Reads of meters and readings under row-level security: one live meter, the meters of a thing,
 * the meter record (latest, needsReview, estimate), and the paged readings and proofs of a meter.
 */
import { thumbUrl } from "../files/read.js";
import { and, eq, inArray, isNotNull, isNull, type SQL } from "drizzle-orm";
import type { Meter, Proof, Reading } from "../../../shared/meters.js";
import { rows, sql, uuidArray, type Tx } from "../../db/client.js";
import { meters, readings, users } from "../../db/schema/index.js";
import { NotFoundError } from "../../errors/classes.js";
import { pageOfRows } from "../../db/paging.js";
import { ESTIMATE_PERIOD_DAYS, decimalOut, estimate } from "./estimate.js";

export type MeterRow = typeof meters.$inferSelect;
export type ReadingRow = typeof readings.$inferSelect;

/** The photo of a proof, as inbox photos link theirs. */

/** A visible, live meter, or 404 whether it is absent, deleted or in a location the actor cannot see. */
export async function findMeter(tx: Tx, id: string): Promise<MeterRow> {
  const [row] = await tx
    .select()
    .from(meters)
    .where(and(eq(meters.id, id), isNull(meters.deletedAt)));
  if (!row) throw new NotFoundError("meter");
  return row;
}

/** A page of a thing's live meters, oldest first (spec convention 6). */
export async function metersOfThing(tx: Tx, thingId: string, q: PageQuery): Promise<{ rows: MeterRow[]; next_cursor: string | null }> {
  return pageOfRows(tx, meters, meters.createdAt, [eq(meters.thingId, thingId), isNull(meters.deletedAt)], q, "asc");
}

interface Facts {
  id: string;
  latest_value: string | null;
  latest_at: string | null;
  needs_review: number;
  counted: number;
  first_total: string | null;
  first_at: string | null;
  last_total: string | null;
  last_at: string | null;
}

const iso = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * What the record says of each meter's readings, in one statement: the newest reading that is
 * not rejected, the count waiting in the inbox, and the first and last counting readings of the
 * estimate's period (estimate.ts) with how many it holds. Totals are summed by the database.
 */
function factsOf(tx: Tx, ids: string[]): Promise<Facts[]> {
  return rows<Facts>(
    tx,
    sql`SELECT m.id::text AS id,
        l.value::text AS latest_value, ${iso(sql`l.taken_at`)} AS latest_at,
        (SELECT count(*)::int FROM readings r WHERE r.meter_id = m.id AND r.status = 'review' AND r.deleted_at IS NULL) AS needs_review,
        (SELECT count(*)::int FROM readings r WHERE r.meter_id = m.id AND r.status = 'ok' AND r.deleted_at IS NULL
           AND r.taken_at >= lo.taken_at - make_interval(days => ${ESTIMATE_PERIOD_DAYS})) AS counted,
        fo.total::text AS first_total, ${iso(sql`fo.taken_at`)} AS first_at,
        lo.total::text AS last_total, ${iso(sql`lo.taken_at`)} AS last_at
      FROM unnest(${uuidArray(ids)}) AS m(id)
      LEFT JOIN LATERAL (SELECT r.value, r.taken_at FROM readings r WHERE r.meter_id = m.id AND r.status <> 'rejected' AND r.deleted_at IS NULL
        ORDER BY r.taken_at DESC, r.id DESC LIMIT 1) l ON true
      LEFT JOIN LATERAL (SELECT r.value + r."offset" AS total, r.taken_at FROM readings r WHERE r.meter_id = m.id AND r.status = 'ok' AND r.deleted_at IS NULL
        ORDER BY r.taken_at DESC, r.id DESC LIMIT 1) lo ON true
      LEFT JOIN LATERAL (SELECT r.value + r."offset" AS total, r.taken_at FROM readings r WHERE r.meter_id = m.id AND r.status = 'ok' AND r.deleted_at IS NULL
        AND r.taken_at >= lo.taken_at - make_interval(days => ${ESTIMATE_PERIOD_DAYS})
        ORDER BY r.taken_at ASC, r.id ASC LIMIT 1) fo ON true`,
  );
}

/** Meters in the spec's record shape, in the order given. */
export async function metersOut(tx: Tx, list: MeterRow[], now = new Date()): Promise<Meter[]> {
  if (!list.length) return [];
  const facts = new Map(
    (
      await factsOf(
        tx,
        list.map((m) => m.id),
      )
    ).map((f) => [f.id, f]),
  );
  return list.map((m) => {
    const f = facts.get(m.id);
    const point = (total: string | null, at: string | null) => (total !== null && at !== null ? { total, at: new Date(at) } : null);
    return {
      id: m.id,
      thingId: m.thingId,
      locationId: m.locationId,
      kind: m.kind,
      unit: m.unit,
      label: m.label,
      ...(f?.latest_value != null && f.latest_at ? { latest: { value: decimalOut(f.latest_value), takenAt: f.latest_at } } : {}),
      needsReview: f?.needs_review ?? 0,
      maxPerDay: m.maxPerDay === null ? null : Number(m.maxPerDay),
      offset: decimalOut(m.offset),
      rowVersion: m.rowVersion,
      nudgeDays: m.nudgeDays,
      estimate: estimate(
        point(f?.first_total ?? null, f?.first_at ?? null),
        point(f?.last_total ?? null, f?.last_at ?? null),
        f?.counted ?? 0,
        m.nudgeDays,
        now,
      ),
    };
  });
}

/** Display names of the people who took readings ("Former member" for one who is gone). */
async function namesOf(tx: Tx, list: { createdBy: string | null }[]): Promise<Map<string, string>> {
  const ids = [...new Set(list.map((r) => r.createdBy).filter((x): x is string => !!x))];
  if (!ids.length) return new Map();
  return new Map((await tx.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids))).map((u) => [u.id, u.name]));
}
const byOf = (names: Map<string, string>, id: string | null) => ({ displayName: (id && names.get(id)) || "Former member" });

export async function readingsOut(tx: Tx, list: ReadingRow[]): Promise<Reading[]> {
  const names = await namesOf(tx, list);
  return list.map((r) => ({
    id: r.id,
    meterId: r.meterId,
    value: decimalOut(r.value),
    offset: decimalOut(r.offset),
    takenAt: r.takenAt.toISOString(),
    fileId: r.fileId,
    thumbUrl: r.fileId ? thumbUrl(r.fileId) : null,
    status: r.status,
    reason: r.reason,
    by: byOf(names, r.createdBy),
    rowVersion: r.rowVersion,
  }));
}

export async function findReading(tx: Tx, id: string): Promise<ReadingRow> {
  const [row] = await tx
    .select()
    .from(readings)
    .where(and(eq(readings.id, id), isNull(readings.deletedAt)));
  if (!row) throw new NotFoundError("reading");
  return row;
}

export interface PageQuery {
  limit: number;
  cursor?: string | undefined;
}

/** A page of a meter's readings, newest takenAt first; `proofsOnly` keeps those with a photo. */
async function readingPage(tx: Tx, meterId: string, q: PageQuery, proofsOnly: boolean) {
  const where: SQL[] = [eq(readings.meterId, meterId), isNull(readings.deletedAt)];
  if (proofsOnly) where.push(isNotNull(readings.fileId));
  return pageOfRows(tx, readings, readings.takenAt, where, q);
}

export async function listReadings(tx: Tx, meterId: string, q: PageQuery): Promise<{ items: Reading[]; next_cursor: string | null }> {
  const page = await readingPage(tx, meterId, q, false);
  return { items: await readingsOut(tx, page.rows), next_cursor: page.next_cursor };
}

export async function listProofs(tx: Tx, meterId: string, q: PageQuery): Promise<{ items: Proof[]; next_cursor: string | null }> {
  const page = await readingPage(tx, meterId, q, true);
  const names = await namesOf(tx, page.rows);
  return {
    items: page.rows.map((r) => ({
      readingId: r.id,
      value: decimalOut(r.value),
      takenAt: r.takenAt.toISOString(),
      fileId: r.fileId!,
      thumbUrl: thumbUrl(r.fileId!),
      by: byOf(names, r.createdBy),
    })),
    next_cursor: page.next_cursor,
  };
}
