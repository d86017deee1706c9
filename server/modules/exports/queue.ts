/**
 * Exports are their own durable queue (migrations/0028), leased like extractions
 * (../extractions/queue.ts): a worker claims queued exports, and running ones whose worker's lease
 * ran out, under FOR UPDATE SKIP LOCKED, so replicas never build the same export twice at once.
 * A claim counts an attempt; an export that keeps killing its worker ends as failed.
 */
import { rows, sql, type Db } from "../../db/client.js";
import { asSystem } from "../../db/actor.js";

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

export async function claimDueExports(db: Db, now: Date, leaseMs: number, limit: number): Promise<ClaimedExport[]> {
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  return asSystem(db, async (tx) => {
    // Runs that died too often stop here instead of looping.
    await tx.execute(
      sql`UPDATE exports SET status = 'failed', error = 'The export stopped repeatedly and was given up.', lease_until = NULL,
            finished_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
          WHERE status = 'running' AND lease_until < ${at}::timestamptz AND attempt >= ${MAX_ATTEMPTS}`,
    );
    return rows<ClaimedExport>(
      tx,
      sql`WITH due AS (
            SELECT id FROM exports
            WHERE status = 'queued' OR (status = 'running' AND lease_until < ${at}::timestamptz)
            ORDER BY created_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
          UPDATE exports e SET status = 'running', lease_until = ${until}::timestamptz, attempt = e.attempt + 1,
            progress_done = 0, updated_at = ${at}::timestamptz
          FROM due WHERE e.id = due.id
          RETURNING e.id::text AS id, e.account_id::text AS account_id, e.location_id::text AS location_id, e.scope,
            e.requested_by::text AS requested_by, e.options, e.includes_secrets, e.attempt`,
    );
  });
}

/**
 * Records progress and extends the lease; answers false when the export is no longer this
 * worker's to build (cancelled meanwhile), which is how a running export notices a cancel.
 */
export async function heartbeat(db: Db, id: string, done: number, total: number, leaseMs: number): Promise<boolean> {
  const now = new Date();
  const found = await asSystem(db, (tx) =>
    rows<{ id: string }>(
      tx,
      sql`UPDATE exports SET progress_done = ${done}, progress_total = ${total}, lease_until = ${new Date(now.getTime() + leaseMs).toISOString()}::timestamptz,
            updated_at = ${now.toISOString()}::timestamptz
          WHERE id = ${id} AND status = 'running' RETURNING id::text AS id`,
    ),
  );
  return found.length > 0;
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

/** Hands an export back at shutdown (its partial file is gone), so the next start need not wait for the lease. */
export async function releaseExport(db: Db, id: string): Promise<void> {
  await asSystem(db, (tx) =>
    tx.execute(sql`UPDATE exports SET status = 'queued', lease_until = NULL, attempt = greatest(attempt - 1, 0) WHERE id = ${id} AND status = 'running'`),
  );
}
