/**
 * Who makes a request, and transactions on its behalf. The Actor type lives here, under everything
 * that takes one, because the data layer reads it (RLS settings, history); sign-in only makes one.
 * Each transaction switches to app_role and sets the transaction-local settings the row-level-security policies read (migrations/0002_rls_and_sync_log.sql), so a write
 * the service should have refused is still refused by the database. The SQL function app_act_as
 * (migrations/0036_one_trip_reads.sql) makes the settings, here and in the one-statement reads.
 */
import type { SQL } from "drizzle-orm";
import { type Db, type Tx, namedRows, sql } from "./client.js";

/**
 * Who is making a request. The write path, RLS settings and history all take an Actor, whatever the
 * way in (session cookie now; personal tokens and MCP grants reuse the same fields).
 */
export interface Actor {
  type: "user" | "token" | "mcp" | "system";
  userId: string;
  displayName: string;
  sessionId?: string;
  tokenId?: string;
  /** Whether the session proved a second factor; locations requiring two-factor stay hidden otherwise. */
  mfaProven: boolean;
  /** Narrows reachable locations (tokens, grants); null means all the user's memberships. */
  locationScope: readonly string[] | null;
  /** False for read-only actors (read tokens, svc:read grants). */
  canWrite: boolean;
}

export function userActor(user: { id: string; name: string }, opts: { sessionId?: string; mfaProven: boolean }): Actor {
  return {
    type: "user",
    userId: user.id,
    displayName: user.name,
    ...(opts.sessionId ? { sessionId: opts.sessionId } : {}),
    mfaProven: opts.mfaProven,
    locationScope: null,
    canWrite: true,
  };
}

/**
 * The actor as the first four arguments of app_act_as, and of the SQL read functions that call it
 * before their own queries (app_things_page): such a read is one statement, one round trip, in its
 * own implicit transaction, and the settings end with it.
 */
export function actorArgs(actor: Actor): SQL {
  return sql`${actor.userId}, ${actor.mfaProven}, ${actor.locationScope ? actor.locationScope.join(",") : ""}, ${actor.canWrite}`;
}

/**
 * `snapshot`: every statement sees the same database (repeatable read), for a caller that checks
 * the actor's scope and then reads under it (the shared live reads, server/sync/shapes/live-streams.ts).
 */
export async function withActor<T>(db: Db, actor: Actor, fn: (tx: Tx) => Promise<T>, opts: { snapshot?: boolean } = {}): Promise<T> {
  return db.transaction(
    async (tx) => {
      await namedRows(tx, "act_as", sql`SELECT app_act_as(${actorArgs(actor)})`);
      return fn(tx);
    },
    opts.snapshot ? { isolationLevel: "repeatable read" } : undefined,
  );
}

/**
 * A transaction with the service's own authority (no RLS): account bootstrap, invite acceptance and
 * jobs. Callers must have checked authorization themselves.
 */
export async function asSystem<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(fn);
}
