/**
 * Extractions are their own durable queue (migrations/0022): a run is a row made in the
 * transaction that captured the photos, so it exists exactly when the capture does, and survives
 * any restart. Workers claim due runs with a lease under FOR UPDATE SKIP LOCKED (replicas never
 * take the same run); a run whose worker died is `running` with a lease in the past and is
 * claimed again. pg-boss was the design's first choice; it was not used because its current
 * releases need Node 22, and because a job sent from inside a command's transaction on the
 * embedded database would need its own way into that transaction, while the run's row already
 * is the job (see the issue note). The queue stands with the AI infrastructure, under the domains
 * that queue runs as they capture (things, receipts) and the extractions module that works them off.
 */
import { v7 as uuidv7 } from "uuid";
import type { ExtractionMode } from "../../shared/extractions.js";
import { sql, uuidArray, type Db, type Queryable } from "../db/client.js";
import { claimLeased, releaseLeased, type LeasedQueue } from "../jobs/leased-queue.js";
import { mirrorInboxPayload } from "../commands/inbox-items.js";

export interface NewExtraction {
  id?: string;
  locationId: string;
  /** What the run reads: a thing (mode `thing`), or a receipt's purchase (mode `receipt`). */
  thingId: string | null;
  purchaseId?: string | null;
  mode: ExtractionMode;
  fileIds: string[];
  requestedBy: string | null;
}

/**
 * Queues runs (in the caller's transaction, which must have the service's authority or have
 * checked the person may write the thing). An unfinished older run of the same thing is
 * superseded: it will not be sent, or its answer will not be applied.
 */
export async function queueExtractions(q: Queryable, runs: NewExtraction[], now: Date): Promise<string[]> {
  if (!runs.length) return [];
  const made = runs.map((r) => ({ ...r, id: r.id ?? uuidv7() }));
  await q.execute(
    sql`UPDATE extractions SET status = 'superseded', status_reason = 'newer_extraction', lease_until = NULL, updated_at = ${now.toISOString()}::timestamptz
        WHERE (thing_id = ANY(${uuidArray(made.flatMap((r) => (r.thingId ? [r.thingId] : [])))})
            OR purchase_id = ANY(${uuidArray(made.flatMap((r) => (r.purchaseId ? [r.purchaseId] : [])))}))
          AND status IN ('queued', 'running', 'waiting_provider', 'paused_budget')`,
  );
  const values = made.map((r) => ({
    id: r.id,
    l: r.locationId,
    t: r.thingId,
    p: r.purchaseId ?? null,
    m: r.mode,
    f: `{${r.fileIds.join(",")}}`,
    b: r.requestedBy,
  }));
  await q.execute(
    sql`INSERT INTO extractions (id, location_id, thing_id, purchase_id, mode, status, file_ids, requested_by, run_after, created_at, updated_at)
        SELECT v.id, v.l, v.t, v.p, v.m, 'queued', v.f::uuid[], v.b, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
        FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS v(id uuid, l uuid, t uuid, p uuid, m text, f text, b uuid)`,
  );
  // An open draft item shows its thing's latest run (capture writes it into the new item itself, as
  // receipt.capture does into its receipt item).
  const runOf = new Map(made.flatMap((r) => (r.thingId ? [[r.thingId, r.id] as const] : [])));
  await mirrorInboxPayload(
    q,
    "extraction",
    { by: "thing", ids: [...runOf.keys()], kinds: ["draft", "receipt"], open: true },
    (thingId: string) => ({
      id: runOf.get(thingId),
      status: "queued",
    }),
    null,
  );
  return made.map((r) => r.id);
}

export interface Claimed {
  id: string;
  location_id: string;
  thing_id: string | null;
  purchase_id: string | null;
  mode: ExtractionMode;
  attempt: number;
  file_ids: string[];
  requested_by: string | null;
}

/** The extractions table as a leased queue (server/jobs/leased-queue.ts). */
const EXTRACTIONS: LeasedQueue = {
  table: "extractions",
  running: "running",
  queued: "queued",
  due: (at) => sql`q.status IN ('queued', 'waiting_provider', 'paused_budget') AND q.run_after <= ${at}::timestamptz`,
  order: sql`q.run_after, q.id`,
  onClaim: (at) => sql`, paused_until = NULL, updated_at = ${at}::timestamptz`,
  returning: sql`q.id::text AS id, q.location_id::text AS location_id, q.thing_id::text AS thing_id, q.purchase_id::text AS purchase_id, q.mode, q.attempt,
    q.file_ids::text[] AS file_ids, q.requested_by::text AS requested_by`,
};

/**
 * Claims up to `limit` due runs for `leaseMs`: queued ones, retries whose backoff ended, budget
 * pauses whose month ended, and running ones whose worker's lease ran out. Each claim counts an
 * attempt, so a run that keeps killing its worker ends as failed (run.ts) instead of looping.
 */
export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number): Promise<Claimed[]> {
  return claimLeased<Claimed>(db, EXTRACTIONS, now, leaseMs, limit);
}

/** Hands unfinished claims back at shutdown, so the next worker need not wait for their leases. */
export async function releaseClaims(db: Db, ids: string[]): Promise<void> {
  await releaseLeased(db, EXTRACTIONS, ids);
}
