/**
 * The delivery outbox (migrations/0030): rows the triggers queued in the writing transactions.
 * Workers claim due ones with a lease under FOR UPDATE SKIP LOCKED (replicas never take the same
 * one; a delivery whose worker died is `delivering` with a lease in the past and is claimed again),
 * and record each attempt: the delivery log, the backoff, and the webhook's failure count.
 */
import { WEBHOOK_BACKOFF_MS, WEBHOOK_FAILURE_LIMIT } from "../../../shared/webhooks.js";
import { asSystem } from "../../db/actor.js";
import { rows, sql, type Db } from "../../db/client.js";
import { claimLeased, type LeasedQueue } from "../../jobs/leased-queue.js";

export interface ClaimedDelivery {
  id: string;
  webhook_id: string;
  account_id: string;
  url: string;
  secret_sealed: string;
  payload: unknown;
  attempt: number;
}

/** The delivery outbox as a leased queue (server/jobs/leased-queue.ts): only active webhooks' deliveries are due. */
const DELIVERIES: LeasedQueue = {
  table: "webhook_deliveries",
  running: "delivering",
  queued: "pending",
  due: (at) => sql`q.status = 'pending' AND q.next_attempt_at <= ${at}::timestamptz`,
  order: sql`q.next_attempt_at, q.created_at`,
  joins: {
    due: sql`JOIN webhooks w ON w.id = q.webhook_id AND w.active`,
    claim: sql`, webhooks w, locations l`,
    where: sql`AND w.id = q.webhook_id AND l.id = w.location_id`,
  },
  returning: sql`q.id::text AS id, q.webhook_id::text AS webhook_id, l.account_id::text AS account_id, w.url, w.secret_sealed, q.payload, q.attempt`,
};

export async function claimDeliveries(db: Db, now: Date, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
  return claimLeased<ClaimedDelivery>(db, DELIVERIES, now, leaseMs, limit);
}

export interface Outcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * Records one attempt. A success ends the delivery and the webhook's failure run; a failure waits
 * out the next backoff step, or ends the delivery as failed after the last one. A webhook whose
 * failures in a row reach WEBHOOK_FAILURE_LIMIT is switched off (`disabled_reason = 'failing'`) and
 * its waiting deliveries are skipped: an admin switches it back on once the receiver works.
 */
export async function recordAttempt(db: Db, d: ClaimedDelivery, outcome: Outcome, now: Date): Promise<void> {
  const at = now.toISOString();
  const entry = JSON.stringify([{ attempt: d.attempt, at, statusCode: outcome.statusCode, error: outcome.error }]);
  const wait = WEBHOOK_BACKOFF_MS[d.attempt - 1];
  const status = outcome.ok ? "delivered" : wait === undefined ? "failed" : "pending";
  const next = new Date(now.getTime() + (wait ?? 0)).toISOString();
  await asSystem(db, async (tx) => {
    await tx.execute(
      sql`UPDATE webhook_deliveries SET status = ${status}, lease_until = NULL, next_attempt_at = ${next}::timestamptz,
            last_status_code = ${outcome.statusCode}, last_error = ${outcome.error}, last_attempt_at = ${at}::timestamptz,
            log = log || ${entry}::jsonb
          WHERE id = ${d.id} AND status = 'delivering'`,
    );
    if (outcome.ok) {
      await tx.execute(sql`UPDATE webhooks SET consecutive_failures = 0 WHERE id = ${d.webhook_id} AND consecutive_failures <> 0`);
      return;
    }
    const [hook] = await rows<{ consecutive_failures: number }>(
      tx,
      sql`UPDATE webhooks SET consecutive_failures = consecutive_failures + 1 WHERE id = ${d.webhook_id} RETURNING consecutive_failures`,
    );
    if (hook && hook.consecutive_failures >= WEBHOOK_FAILURE_LIMIT) {
      await tx.execute(
        sql`UPDATE webhooks SET active = false, disabled_reason = 'failing', row_version = row_version + 1, updated_at = ${at}::timestamptz
            WHERE id = ${d.webhook_id} AND active`,
      );
      await tx.execute(sql`UPDATE webhook_deliveries SET status = 'skipped', lease_until = NULL WHERE webhook_id = ${d.webhook_id} AND status = 'pending'`);
    }
  });
}

/** How long finished deliveries stay in the log. */
export const DELIVERY_LOG_DAYS = 30;

/** Deletes finished deliveries older than the log keeps; waiting ones stay whatever their age. */
export async function pruneDeliveries(db: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - DELIVERY_LOG_DAYS * 86_400_000).toISOString();
  const gone = await asSystem(db, (tx) =>
    rows<{ id: string }>(
      tx,
      sql`DELETE FROM webhook_deliveries WHERE status IN ('delivered', 'failed', 'skipped') AND created_at < ${before}::timestamptz RETURNING id::text`,
    ),
  );
  return gone.length;
}
