/**
 * POST /api/v1/sync/push (sync/SPEC.md PU1-PU7): one transaction per batch; each op gets a verdict
 * in order; dropped ops become sync_drop items; every verdict is recorded under its op id so a
 * replay answers `duplicate`.
 */
import { and, eq } from "drizzle-orm";
import { isOpName } from "../../sync/ops.js";
import { MAX_BODY_BYTES, MAX_OPS, MIN_PROTOCOL, pushRequestSchema, pushResponseSchema, type OpResult, type PushOp } from "../../sync/protocol.js";
import { type Actor, withActor } from "../db/actor.js";
import { loadContext, type Executor } from "../commands/executor.js";
import { bulkInsert } from "../commands/bulk.js";
import { newId } from "../commands/ids.js";
import { type Db, type Tx, dbErrorOf, isUniqueViolation, sql, uuidArray } from "../db/client.js";
import { syncOps } from "../db/schema/index.js";
import { type AppError, ClientTooOldError, PayloadTooLargeError, UnavailableError } from "../errors/classes.js";
import { defineRoute, type RouteDef, type RouteDeps } from "../http/route.js";
import { dropReason } from "../errors/drop-reason.js";

/** Pushes in flight in this process; beyond it the answer is 503 + Retry-After (PU3). */
const MAX_CONCURRENT_PUSHES = 4;
let inFlight = 0;

type Stored = Exclude<OpResult, { status: "duplicate" }>;

/** A dropped op, on its way to becoming a sync_drop inbox item under the id its verdict names. */
export interface Drop {
  op: PushOp;
  error: AppError;
  inboxItemId: string;
}

/**
 * What push takes from the domains, handed in by the route table (server/routes.ts): the write core
 * bound to the command registry (server/modules/registry.ts), and the writer of sync_drop items
 * (server/modules/inbox/drops.ts). Push itself knows no domain.
 */
export interface PushWriters {
  executeInTx: Executor["executeInTx"];
  recordDrops: (tx: Tx, actor: Actor, drops: Drop[], now: Date) => Promise<void>;
}

export async function pushBatch(
  db: Db,
  { executeInTx, recordDrops }: PushWriters,
  actor: Actor,
  clientId: string,
  ops: PushOp[],
  undoWindowMs: number,
): Promise<OpResult[]> {
  return withActor(db, actor, async (tx) => {
    const now = new Date();
    // Asked for ahead of the op-id lookup, so the two queries go out back to back.
    const context = loadContext(tx);
    context.catch(() => undefined);
    // Only ids up to the newest one recorded for this user can have been seen: devices make v7
    // ids, so a batch of new ops usually costs one index lookup instead of one per op.
    const ids = uuidArray([...new Set(ops.map((o) => o.id))]);
    const seen = ops.length
      ? await tx
          .select({ opId: syncOps.opId, result: syncOps.result })
          .from(syncOps)
          .where(
            and(
              eq(syncOps.userId, actor.userId),
              sql`${syncOps.opId} IN (SELECT u FROM unnest(${ids}) AS u
                    WHERE u <= (SELECT s.op_id FROM sync_ops s WHERE s.user_id = ${actor.userId} ORDER BY s.op_id DESC LIMIT 1))`,
            ),
          )
      : [];
    // The stored result leaves out the op id (it is the row's key); older rows carry it too.
    const stored = new Map(seen.map((s) => [s.opId, { ...s.result, id: s.opId } as Stored]));
    // Ops to run: first sight of each id in this batch; later copies are duplicates of it (PU6).
    const fresh: PushOp[] = [];
    const inBatch = new Set<string>();
    for (const op of ops) {
      if (stored.has(op.id) || inBatch.has(op.id)) continue;
      inBatch.add(op.id);
      fresh.push(op);
    }
    const verdicts = await executeInTx(
      tx,
      actor,
      fresh.map((op) => ({
        opId: op.id,
        name: op.name,
        locationId: op.locationId,
        args: op.args,
        at: op.at,
        merge: true,
        ...(op.baseVersion !== undefined ? { baseVersion: op.baseVersion } : {}),
      })),
      // Only the ops of sync/ops.ts: internal commands (file records) have their own routes (DR1).
      { undoWindowMs, context, accepts: isOpName, clientId },
    );
    const drops: Drop[] = [];
    const records: (typeof syncOps.$inferInsert)[] = [];
    fresh.forEach((op, i) => {
      const v = verdicts[i]!;
      let result: Stored;
      if (v.status === "applied") result = { id: op.id, status: "applied", rowVersion: v.rowVersion, txid: v.txid };
      else {
        const drop = { op, error: v.error, inboxItemId: newId() };
        drops.push(drop);
        result = { id: op.id, status: "dropped", reason: dropReason(v.error), inboxItemId: drop.inboxItemId };
      }
      stored.set(op.id, result);
      const { id: _key, ...kept } = result;
      records.push({ opId: op.id, userId: actor.userId, clientId, name: op.name, locationId: op.locationId, result: kept, at: now });
    });
    await recordDrops(tx, actor, drops, now);
    await bulkInsert(tx, syncOps, records);
    const firstRun = new Set(fresh);
    return ops.map((op): OpResult => {
      const r = stored.get(op.id)!;
      if (firstRun.has(op)) return r;
      const { status, ...rest } = r;
      return { ...rest, status: "duplicate", was: status };
    });
  });
}

/** Deadlock or serialization failure: nothing was applied, and the same batch will go through when pushed again. */
const isRetryableConflict = (err: unknown) => ["40P01", "40001"].includes(dbErrorOf(err).code ?? "");

export function pushRoutes({ db, config }: RouteDeps, writers: PushWriters): RouteDef[] {
  return [
    defineRoute({
      method: "post",
      path: "/api/v1/sync/push",
      summary: "Push a batch of ops from a device's outbox; one verdict per op, in order",
      tag: "sync",
      body: pushRequestSchema,
      // Each op's args are checked by the executor, so a bad op is dropped, not the batch (PU8).
      bodyTextCheckedLater: true,
      response: pushResponseSchema,
      async handler({ actor, body }) {
        if (body.protocol < MIN_PROTOCOL) throw new ClientTooOldError(MIN_PROTOCOL);
        if (body.ops.length > MAX_OPS) throw new PayloadTooLargeError(MAX_BODY_BYTES, { maxOps: MAX_OPS }, `A batch holds at most ${MAX_OPS} ops; split it.`);
        if (inFlight >= MAX_CONCURRENT_PUSHES) throw new UnavailableError(1);
        inFlight++;
        try {
          try {
            return { results: await pushBatch(db, writers, actor, body.clientId, body.ops, config.undoWindowMs) };
          } catch (err) {
            // PU9: the same ops pushed twice at once. The other transaction recorded them first and
            // has committed (a unique insert waits for it), so running the batch again answers
            // `duplicate` with the stored verdicts.
            if (isRetryableConflict(err)) throw new UnavailableError(1, "Another push touched the same rows at the same moment; push again.");
            if (!isUniqueViolation(err, "sync_ops_user_id_op_id_pk")) throw err;
            return { results: await pushBatch(db, writers, actor, body.clientId, body.ops, config.undoWindowMs) };
          }
        } finally {
          inFlight--;
        }
      },
    }),
  ] as RouteDef[];
}
