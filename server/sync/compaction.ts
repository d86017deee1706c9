/**
 * Compaction of the change log (sync/SPEC.md SH10), so that it stays bounded by the rows it
 * describes instead of growing with every write.
 *
 * - Superseded entries go: every entry carries the full row and a reader converges on the last
 *   entry of a row, so an entry followed by a later one of the same key (table, row, location or
 *   account) is never needed by any reader at any offset. The key keeps the scope: a row that left
 *   a location keeps its `delete` there beside its row under the new location (SH2).
 * - Tombstones (`delete` entries, the last of their key) go once older than the retention; the
 *   horizon records the newest seq removed so, and a reader from an older offset refetches (SH7).
 *
 * Incremental: each batch takes the next window of seqs after `compacted_through` and removes the
 * older entries of the keys it holds (found by the row's id, `sync_log_row_seq_idx`). Seqs are drawn
 * at commit under the log's lock (migrations/0015), so every seq up to the log's head is committed
 * (or gone) when a batch reads it: a window never ends inside a commit still in flight, and a key's
 * last entry is never removed as superseded. Each batch is its own short transaction; the state
 * row is taken FOR UPDATE SKIP LOCKED, so a second replica running the job at once steps aside, and
 * a run after a finished one finds nothing to do.
 */
import { asSystem } from "../db/actor.js";
import { type Db, type Tx, rows, sql } from "../db/client.js";

/** Seqs a batch compacts: a few thousand deletes at most, a transaction of milliseconds. */
export const COMPACTION_WINDOW = 10_000;
/** Tombstones a batch removes. */
export const TOMBSTONE_BATCH = 5_000;
/** Batches one run does at most (the next run goes on). */
const MAX_BATCHES = 1_000;

export interface CompactionOptions {
  /** Tombstones older than this go (config.syncTombstoneMs). */
  tombstoneMaxAgeMs: number;
  now?: Date;
  window?: number;
  tombstoneBatch?: number;
}

export interface CompactionRun {
  /** Superseded entries removed. */
  superseded: number;
  /** Tombstones removed (older than the retention). */
  tombstones: number;
  /** The log is compacted up to this seq. */
  compactedThrough: number;
  /** Offsets older than this seq answer must-refetch. */
  horizon: number;
  batches: number;
  /** Another replica was compacting: this run stepped aside. */
  skipped: boolean;
}

interface State {
  through: number;
  horizon: number;
}

/** One run of the periodic job; idempotent. */
export async function compactSyncLog(db: Db, opts: CompactionOptions): Promise<CompactionRun> {
  const window = opts.window ?? COMPACTION_WINDOW;
  const run: CompactionRun = { superseded: 0, tombstones: 0, compactedThrough: 0, horizon: 0, batches: 0, skipped: false };
  while (run.batches < MAX_BATCHES) {
    const batch = await supersededBatch(db, window);
    if (!batch) return { ...run, skipped: true };
    run.batches++;
    run.superseded += batch.deleted;
    run.compactedThrough = batch.state.through;
    run.horizon = batch.state.horizon;
    if (batch.caughtUp) break;
  }
  const cutoff = new Date((opts.now ?? new Date()).getTime() - opts.tombstoneMaxAgeMs);
  const limit = opts.tombstoneBatch ?? TOMBSTONE_BATCH;
  while (run.batches < MAX_BATCHES) {
    const batch = await tombstoneBatch(db, cutoff, limit);
    if (!batch) return { ...run, skipped: true };
    run.batches++;
    run.tombstones += batch.deleted;
    run.horizon = batch.state.horizon;
    if (batch.deleted < limit) break;
  }
  return run;
}

/** The state row, locked for this batch; null when another replica holds it. */
async function lockState(tx: Tx): Promise<State | null> {
  const [state] = await rows<{ through: string; horizon: string }>(
    tx,
    sql`SELECT compacted_through::text AS through, horizon::text AS horizon FROM sync_log_compaction FOR UPDATE SKIP LOCKED`,
  );
  return state ? { through: Number(state.through), horizon: Number(state.horizon) } : null;
}

/**
 * Removes the older entries of the keys of the next window of seqs. Each key's older entries are
 * looked up by the row's id (OFFSET 0 keeps that lookup per key: joined as a whole, the planner
 * hashes the entire log on every batch), then deleted by primary key.
 */
function supersededBatch(db: Db, window: number): Promise<{ deleted: number; state: State; caughtUp: boolean } | null> {
  return asSystem(db, async (tx) => {
    const state = await lockState(tx);
    if (!state) return null;
    const [{ head }] = (await rows<{ head: string }>(tx, sql`SELECT sync_log_head()::text AS head`)) as [{ head: string }];
    const upper = Math.min(Number(head), state.through + window);
    if (upper <= state.through) return { deleted: 0, state, caughtUp: true };
    // The per-key lookups make a high cost estimate; compiling the plan would cost more than running it.
    await tx.execute(sql`SELECT set_config('jit', 'off', true)`);
    const [{ n }] = (await rows<{ n: number }>(
      tx,
      sql`WITH touched AS (
            SELECT table_name, row_id, location_id, account_id, max(seq) AS last
            FROM sync_log WHERE seq > ${state.through} AND seq <= ${upper}
            GROUP BY table_name, row_id, location_id, account_id
          ), older AS (
            SELECT array_agg(o.seq) AS seqs FROM touched t CROSS JOIN LATERAL (
              SELECT l.seq FROM sync_log l
              WHERE l.row_id = t.row_id AND l.seq < t.last AND l.table_name = t.table_name
                AND l.location_id IS NOT DISTINCT FROM t.location_id AND l.account_id IS NOT DISTINCT FROM t.account_id
              OFFSET 0) o
          ), gone AS (
            DELETE FROM sync_log WHERE seq = ANY ((SELECT seqs FROM older)::bigint[]) RETURNING 1
          )
          SELECT count(*)::int AS n FROM gone`,
    )) as [{ n: number }];
    await tx.execute(sql`UPDATE sync_log_compaction SET compacted_through = ${upper}, compacted_at = now()`);
    return { deleted: Number(n), state: { ...state, through: upper }, caughtUp: upper >= Number(head) };
  });
}

/**
 * Removes tombstones older than `cutoff`, oldest first, among the compacted part of the log (so
 * their key's older entries are gone already and the key leaves the log whole), and moves the
 * horizon past them in the same transaction: a reader never sees the log without a tombstone and
 * with the old horizon.
 */
function tombstoneBatch(db: Db, cutoff: Date, limit: number): Promise<{ deleted: number; state: State } | null> {
  return asSystem(db, async (tx) => {
    const state = await lockState(tx);
    if (!state) return null;
    const [gone] = await rows<{ n: number; last: string | null }>(
      tx,
      sql`WITH gone AS (
            DELETE FROM sync_log WHERE seq IN (
              SELECT seq FROM sync_log
              WHERE op = 'delete' AND seq <= ${state.through} AND at < ${cutoff.toISOString()}::timestamptz
              ORDER BY seq LIMIT ${limit})
            RETURNING seq
          )
          SELECT count(*)::int AS n, max(seq)::text AS last FROM gone`,
    );
    const deleted = Number(gone?.n ?? 0);
    const horizon = gone?.last ? Math.max(state.horizon, Number(gone.last)) : state.horizon;
    if (horizon !== state.horizon) await tx.execute(sql`UPDATE sync_log_compaction SET horizon = ${horizon}`);
    return { deleted, state: { ...state, horizon } };
  });
}
