/**
 * Exports are their own durable queue (migrations/0028), leased like the other jobs
 * (server/jobs/leased-queue.ts): a worker claims queued exports, and running ones whose worker's
 * lease ran out, under FOR UPDATE SKIP LOCKED, so replicas never build the same export twice at
 * once. A claim counts an attempt; an export that keeps killing its worker ends as failed.
 */
import { rows, sql, type Db, type Tx } from "../../db/client.js";
import { asSystem } from "../../db/actor.js";
import { claimLeased, extendLease, releaseLeased, type LeasedQueue } from "../../jobs/leased-queue.js";
import { EXPORT_COLUMNS, type ExportRow } from "./read.js";

export const MAX_ATTEMPTS = 3;

export interface ClaimedExport {
  id: string;
  account_id: string;
  location_id: string | null;
  scope: "location" | "account";
  requested_by: string;
  options: Record<string, unknown>;
  includes_secrets: boolean;
  attempt: number;
}

/**
 * How many of the person's exports are queued or running, after taking their create lock: the lock
 * serialises one person's creates until the transaction ends, so two at once cannot both pass a limit.
 */
export async function lockedActiveCount(tx: Tx, userId: string): Promise<number> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`export:${userId}`}))`);
  const [active] = await rows<{ n: number }>(
    tx,
    sql`SELECT count(*)::int AS n FROM exports WHERE requested_by = ${userId} AND status IN ('queued', 'running')`,
  );
  return active?.n ?? 0;
}

/** Queues an export: the row the request makes is the queue's job. */
export async function insertExport(
  tx: Tx,
  e: {
    id: string;
    accountId: string;
    locationId: string | null;
    scope: "location" | "account";
    requestedBy: string;
    options: object;
    includesSecrets: boolean;
  },
): Promise<ExportRow> {
  const [row] = await rows<ExportRow>(
    tx,
    sql`INSERT INTO exports (id, account_id, location_id, scope, requested_by, options, includes_secrets)
        VALUES (${e.id}, ${e.accountId}, ${e.locationId}, ${e.scope}, ${e.requestedBy}, ${JSON.stringify(e.options)}::jsonb, ${e.includesSecrets})
        RETURNING ${EXPORT_COLUMNS}`,
  );
  return row!;
}

/** Cancels a queued or running export; null when it had already ended. */
export async function cancelActive(tx: Tx, id: string): Promise<ExportRow | null> {
  const [done] = await rows<ExportRow>(
    tx,
    sql`UPDATE exports SET status = 'cancelled', lease_until = NULL, finished_at = now(), updated_at = now()
        WHERE id = ${id} AND status IN ('queued', 'running') RETURNING ${EXPORT_COLUMNS}`,
  );
  return done ?? null;
}

/** The exports table as a leased queue (server/jobs/leased-queue.ts). */
const EXPORTS: LeasedQueue = {
  table: "exports",
  running: "running",
  queued: "queued",
  due: () => sql`q.status = 'queued'`,
  order: sql`q.created_at, q.id`,
  onClaim: (at) => sql`, progress_done = 0, updated_at = ${at}::timestamptz`,
  returning: sql`q.id::text AS id, q.account_id::text AS account_id, q.location_id::text AS location_id, q.scope,
    q.requested_by::text AS requested_by, q.options, q.includes_secrets, q.attempt`,
  // Runs that died too often stop here instead of looping.
  giveUp: {
    attempts: MAX_ATTEMPTS,
    status: "failed",
    set: (at) => sql`, error = 'The export stopped repeatedly and was given up.', finished_at = ${at}::timestamptz, updated_at = ${at}::timestamptz`,
  },
};

export async function claimDueExports(db: Db, now: Date, leaseMs: number, limit: number): Promise<ClaimedExport[]> {
  return claimLeased<ClaimedExport>(db, EXPORTS, now, leaseMs, limit);
}

/**
 * Records progress and extends the lease; answers false when the export is no longer this
 * worker's to build (cancelled meanwhile), which is how a running export notices a cancel.
 */
export async function heartbeat(db: Db, id: string, done: number, total: number, leaseMs: number): Promise<boolean> {
  return extendLease(
    db,
    EXPORTS,
    id,
    leaseMs,
    sql`, progress_done = ${done}, progress_total = ${total}, updated_at = ${new Date().toISOString()}::timestamptz`,
  );
}

/** Marks the export done; false when it was cancelled meanwhile (the caller then deletes the file). */
export async function finish(db: Db, id: string, result: { bytes: number; sha256: string; total: number; ttlMs: number }): Promise<boolean> {
  const now = new Date();
  const found = await asSystem(db, (tx) =>
    rows<{ id: string }>(
      tx,
      sql`UPDATE exports SET status = 'succeeded', bytes = ${result.bytes}, sha256 = ${result.sha256}, progress_done = ${result.total},
            progress_total = ${result.total}, lease_until = NULL, finished_at = ${now.toISOString()}::timestamptz,
            expires_at = ${new Date(now.getTime() + result.ttlMs).toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
          WHERE id = ${id} AND status = 'running' RETURNING id::text AS id`,
    ),
  );
  return found.length > 0;
}

export async function fail(db: Db, id: string, error: string): Promise<void> {
  const at = new Date().toISOString();
  await asSystem(db, (tx) =>
    tx.execute(
      sql`UPDATE exports SET status = 'failed', error = ${error.slice(0, 500)}, lease_until = NULL, finished_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
          WHERE id = ${id} AND status = 'running'`,
    ),
  );
}

/** Finished exports whose file's time ran out: marked expired; the caller deletes their files. */
export async function expireDue(db: Db, now: Date): Promise<string[]> {
  const found = await asSystem(db, (tx) =>
    rows<{ id: string }>(
      tx,
      sql`UPDATE exports SET status = 'expired', updated_at = ${now.toISOString()}::timestamptz
          WHERE status = 'succeeded' AND expires_at <= ${now.toISOString()}::timestamptz RETURNING id::text AS id`,
    ),
  );
  return found.map((r) => r.id);
}

/** Hands exports back at shutdown (their partial files are gone), so the next start need not wait for the leases. */
export async function releaseExports(db: Db, ids: string[]): Promise<void> {
  await releaseLeased(db, EXPORTS, ids);
}
