/**
 * Report jobs are their own leased queue (as extractions, ../extractions/queue.ts): a job is the
 * row made by the request; workers claim due jobs with a lease under FOR UPDATE SKIP LOCKED, so
 * replicas never build the same report, and a job whose worker died is claimed again when its
 * lease ends. Each claim counts an attempt, so a report that keeps killing its worker ends failed.
 */
import type { ReportParams } from "../../../shared/reports.js";
import { rows, sql, type Db } from "../../db/client.js";
import { asSystem } from "../../db/actor.js";

export const MAX_ATTEMPTS = 3;

export interface ClaimedReport {
  id: string;
  location_id: string;
  requested_by: string;
  params: ReportParams;
  attempt: number;
}

export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number): Promise<ClaimedReport[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  return asSystem(db, async (tx) => {
    // Jobs that used up their attempts (their worker died each time) fail instead of looping.
    await tx.execute(
      sql`UPDATE report_jobs SET status = 'failed', error = 'worker_lost', lease_until = NULL, finished_at = ${at}::timestamptz
          WHERE status = 'running' AND lease_until < ${at}::timestamptz AND attempt >= ${MAX_ATTEMPTS}`,
    );
    return rows<ClaimedReport>(
      tx,
      sql`WITH due AS (
            SELECT id FROM report_jobs
            WHERE status = 'queued' OR (status = 'running' AND lease_until < ${at}::timestamptz)
            ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          UPDATE report_jobs r SET status = 'running', lease_until = ${until}::timestamptz, attempt = r.attempt + 1
          FROM due WHERE r.id = due.id
          RETURNING r.id::text AS id, r.location_id::text AS location_id, r.requested_by::text AS requested_by, r.params, r.attempt`,
    );
  });
}

export async function finishReport(db: Db, id: string, pdf: Buffer, now: Date): Promise<void> {
  await asSystem(db, (tx) =>
    tx.execute(
      sql`UPDATE report_jobs SET status = 'done', file = ${pdf}, bytes = ${pdf.length}, error = NULL, lease_until = NULL, finished_at = ${now.toISOString()}::timestamptz
          WHERE id = ${id} AND status = 'running'`,
    ),
  );
}

export async function failReport(db: Db, id: string, error: string, now: Date): Promise<void> {
  await asSystem(db, (tx) =>
    tx.execute(
      sql`UPDATE report_jobs SET status = 'failed', error = ${error}, file = NULL, lease_until = NULL, finished_at = ${now.toISOString()}::timestamptz
          WHERE id = ${id} AND status = 'running'`,
    ),
  );
}

/** Hands unfinished claims back at shutdown, so the next worker need not wait for their leases. */
export async function releaseReports(db: Db, ids: string[]): Promise<void> {
  for (const id of ids)
    await asSystem(db, (tx) =>
      tx.execute(sql`UPDATE report_jobs SET status = 'queued', lease_until = NULL, attempt = greatest(attempt - 1, 0) WHERE id = ${id} AND status = 'running'`),
    );
}

/** Deletes the files of expired reports (the rows stay, so the job still answers, without a file). */
export async function expireReports(db: Db, now: Date): Promise<number> {
  const gone = await asSystem(db, (tx) =>
    rows<{ id: string }>(tx, sql`UPDATE report_jobs SET file = NULL WHERE file IS NOT NULL AND expires_at <= ${now.toISOString()}::timestamptz RETURNING id`),
  );
  return gone.length;
}
