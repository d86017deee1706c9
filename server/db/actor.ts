/**
 * Transactions on behalf of an actor. Each one switches to app_role and sets the transaction-local
 * settings the row-level-security policies read (migrations/0002_rls_and_sync_log.sql), so a write
 * the service should have refused is still refused by the database.
 */
import type { Actor } from "../auth/actor.js";
import { type Db, type Tx, sql } from "./client.js";

/**
 * `snapshot`: every statement sees the same database (repeatable read), for a caller that checks
 * the actor's scope and then reads under it (the shared live reads, server/sync/shapes/live-streams.ts).
 */
export async function withActor<T>(db: Db, actor: Actor, fn: (tx: Tx) => Promise<T>, opts: { snapshot?: boolean } = {}): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT
      set_config('role', 'app_role', true),
      set_config('app.user_id', ${actor.userId}, true),
      set_config('app.mfa_proven', ${actor.mfaProven ? "on" : "off"}, true),
      set_config('app.location_ids', ${actor.locationScope ? actor.locationScope.join(",") : ""}, true),
      set_config('app.can_write', ${actor.canWrite ? "on" : "off"}, true)`);
    return fn(tx);
  }, opts.snapshot ? { isolationLevel: "repeatable read" } : undefined);
}

/**
 * A transaction with the service's own authority (no RLS): account bootstrap, invite acceptance and
 * jobs. Callers must have checked authorization themselves.
 */
export async function asSystem<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}
