/**
 * Report jobs are their own leased queue (server/jobs/leased-queue.ts): a job is the row made by
 * the request; workers claim due jobs with a lease under FOR UPDATE SKIP LOCKED, so
 * replicas never build the same report, and a job whose worker died is claimed again when its
 * lease ends. Each claim counts an attempt, so a report that keeps killing its worker ends failed.
 */
import type { ReportParams } from "../../../shared/reports.js";
import { rows, sql, type Db, type Tx } from "../../db/client.js";
import { asSystem } from "../../db/actor.js";
import { claimLeased, releaseLeased, type LeasedQueue } from "../../jobs/leased-queue.js";

export const MAX_ATTEMPTS = 3;

export interface ClaimedReport {
  id: string;
  location_id: string;
  requested_by: string;
  params: ReportParams;
  attempt: number;
}

/** Queues a report: the row the request makes, on the requester's transaction, is the queue's job. */
export async function insertReportJob(
  tx: Tx,
  job: { id: string; locationId: string; requestedBy: string; params: ReportParams; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await tx.execute(
    sql`INSERT INTO report_jobs (id, location_id, requested_by, params, status, created_at, expires_at)
        VALUES (${job.id}, ${job.locationId}, ${job.requestedBy}, ${JSON.stringify(job.params)}::jsonb, 'queued',
                ${job.createdAt.toISOString()}::timestamptz, ${job.expiresAt.toISOString()}::timestamptz)`,
  );
}

/** The report jobs table as a leased queue (server/jobs/leased-queue.ts). */
const REPORT_JOBS: LeasedQueue = {
  table: "report_jobs",
  running: "running",
  queued: "queued",
  due: () => sql`q.status = 'queued'`,
  order: sql`q.created_at, q.id`,
  returning: sql`q.id::text AS id, q.location_id::text AS location_id, q.requested_by::text AS requested_by, q.params, q.attempt`,
  // Jobs that used up their attempts (their worker died each time) fail instead of looping.
  giveUp: { attempts: MAX_ATTEMPTS, status: "failed", set: (at) => sql`, error = 'worker_lost', finished_at = ${at}::timestamptz` },
};

export async function claimDue(db: Db, now: Date, leaseMs: number, limit: number): Promise<ClaimedReport[]> {
  return claimLeased<ClaimedReport>(db, REPORT_JOBS, now, leaseMs, limit);
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
  await releaseLeased(db, REPORT_JOBS, ids);
}

/** Deletes the files of expired reports (the rows stay, so the job still answers, without a file). */
export async function expireReports(db: Db, now: Date): Promise<number> {
  const gone = await asSystem(db, (tx) =>
    rows<{ id: string }>(tx, sql`UPDATE report_jobs SET file = NULL WHERE file IS NOT NULL AND expires_at <= ${now.toISOString()}::timestamptz RETURNING id`),
  );
  return gone.length;
}
