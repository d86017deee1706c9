/**
 * The leased queue the background workers share (extractions, reports, exports, webhook
 * deliveries). Each keeps its jobs as rows of its own table, so a job exists exactly when the
 * transaction that asked for it committed. A worker claims due rows with a lease under FOR UPDATE
 * SKIP LOCKED, so replicas never take the same row; a row whose worker died (still claimed, lease in
 * the past) is claimed again. Each claim counts an attempt, so a job that keeps killing its worker
 * can be given up instead of looping. pg-boss was the design's first choice; why it was not used:
 * server/ai/extraction-queue.ts.
 *
 * The table, its statuses and the fragments below are the calling module's own constants, never
 * input: the table goes in as an identifier, statuses as parameters. Fragments read the table's row
 * as `q`.
 */
import type { SQL } from "drizzle-orm";
import { rows, sql, uuidArray, type Db } from "../db/client.js";
import { asSystem } from "../db/actor.js";

export interface LeasedQueue {
  table: string;
  /** The status of a claimed row ('running', 'delivering'). */
  running: string;
  /** The status a row handed back at shutdown returns to ('queued', 'pending'). */
  queued: string;
  /** Which rows are due, besides claimed ones whose lease ran out (`at`: the claim's time, ISO). */
  due: (at: string) => SQL;
  /** The order due rows are taken in. */
  order: SQL;
  /** What a claim answers (`q.id::text AS id, ...`). */
  returning: SQL;
  /** More assignments a claim makes, each after a comma (`, updated_at = ...`). */
  onClaim?: (at: string) => SQL;
  /**
   * Other tables: `due` joins them to pick rows (`JOIN webhooks w ON ...`); `claim` lists them for
   * the answer (`, webhooks w`) with `where` tying them to q (`AND w.id = q.webhook_id`).
   */
  joins?: { due: SQL; claim: SQL; where: SQL };
  /**
   * A claimed row whose lease ran out with `attempts` claims made is not claimed again but set to
   * `status` with the assignments of `set` (after a comma).
   */
  giveUp?: { attempts: number; status: string; set: (at: string) => SQL };
}

/** Claims up to `limit` due rows of the queue for `leaseMs`, as the service (no person's rights). */
export async function claimLeased<T>(db: Db, queue: LeasedQueue, now: Date, leaseMs: number, limit: number): Promise<T[]> {
  const table = sql.identifier(queue.table);
  const at = now.toISOString();
  const until = new Date(now.getTime() + leaseMs).toISOString();
  const { giveUp, joins } = queue;
  return asSystem(db, async (tx) => {
    if (giveUp)
      await tx.execute(
        sql`UPDATE ${table} q SET status = ${giveUp.status}, lease_until = NULL${giveUp.set(at)}
            WHERE q.status = ${queue.running} AND q.lease_until < ${at}::timestamptz AND q.attempt >= ${giveUp.attempts}`,
      );
    return rows<T>(
      tx,
      sql`WITH due AS (
            SELECT q.id FROM ${table} q ${joins?.due ?? sql``}
            WHERE (${queue.due(at)}) OR (q.status = ${queue.running} AND q.lease_until < ${at}::timestamptz)
            ORDER BY ${queue.order} LIMIT ${limit} FOR UPDATE OF q SKIP LOCKED)
          UPDATE ${table} q SET status = ${queue.running}, lease_until = ${until}::timestamptz, attempt = q.attempt + 1${queue.onClaim?.(at) ?? sql``}
          FROM due${joins?.claim ?? sql``}
          WHERE q.id = due.id ${joins?.where ?? sql``}
          RETURNING ${queue.returning}`,
    );
  });
}

/**
 * Extends the lease of a row this worker still holds (with the assignments of `set`, after a
 * comma); false when it is no longer claimed (cancelled or finished meanwhile).
 */
export async function extendLease(db: Db, queue: LeasedQueue, id: string, leaseMs: number, set: SQL = sql``): Promise<boolean> {
  const until = new Date(Date.now() + leaseMs).toISOString();
  const found = await asSystem(db, (tx) =>
    rows<{ id: string }>(
      tx,
      sql`UPDATE ${sql.identifier(queue.table)} SET lease_until = ${until}::timestamptz${set}
          WHERE id = ${id} AND status = ${queue.running} RETURNING id::text AS id`,
    ),
  );
  return found.length > 0;
}

/** Hands unfinished claims back at shutdown, so the next worker need not wait for their leases. */
export async function releaseLeased(db: Db, queue: LeasedQueue, ids: readonly string[]): Promise<void> {
  if (!ids.length) return;
  await asSystem(db, (tx) =>
    tx.execute(
      sql`UPDATE ${sql.identifier(queue.table)} SET status = ${queue.queued}, lease_until = NULL, attempt = greatest(attempt - 1, 0)
          WHERE id = ANY(${uuidArray(ids)}) AND status = ${queue.running}`,
    ),
  );
}
