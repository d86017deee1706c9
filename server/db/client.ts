/**
 * The database handle. PGlite (Postgres in WASM, data in SVC_DATA_DIR/pg) when DATABASE_URL is
 * unset, node-postgres otherwise; the same migrations and the same drizzle code run on both.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { sql, type SQL } from "drizzle-orm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import pg from "pg";
import * as schema from "./schema/index.js";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Anything that can run a query: the database or an open transaction. */
export type Queryable = Db | Tx;

/** migrations/ at the repository root, found from this file whether it runs from source or dist/. */
export const MIGRATIONS_DIR = ["../../migrations", "../../../migrations"]
  .map((rel) => path.resolve(path.dirname(fileURLToPath(import.meta.url)), rel))
  .find((dir) => existsSync(path.join(dir, "meta", "_journal.json"))) as string;

export interface Database {
  kind: "pglite" | "postgres";
  db: Db;
  /**
   * Subscribe to a NOTIFY channel; returns the unsubscribe function. `onLost` is called once if
   * the subscription's connection dies (PostgreSQL restarted): subscribe again to go on.
   */
  listen(channel: string, onPayload: (payload: string) => void, onLost?: (err: unknown) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; in-memory when undefined. */
  dataDir?: string | undefined;
  /** A PGlite instance to use in this thread (the tests' one-off migration that makes their dump). */
  pglite?: PGlite;
  /** A PGlite data-directory dump (a tar file) to start from instead of `dataDir` (tests). */
  loadDataDir?: string | undefined;
  poolSize?: number;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // A pool error on an idle client must not crash the process; the next query reconnects.
    pool.on("error", () => undefined);
    // Nor one on a client in use (a transaction, the LISTEN connection) when the server goes away:
    // its queries fail with the error, and the pool drops it when it is released.
    pool.on("connect", (client) => client.on("error", () => undefined));
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    return {
      kind: "postgres",
      db,
      async listen(channel, onPayload, onLost) {
        const client = await pool.connect();
        client.on("notification", (n) => {
          if (n.channel === channel) onPayload(n.payload ?? "");
        });
        let lost: unknown;
        client.once("error", (err) => {
          lost = err;
          onLost?.(err);
        });
        try {
          await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        } catch (err) {
          client.release(err as Error);
          throw err;
        }
        return async () => {
          if (lost !== undefined) return client.release(lost as Error);
          // Handed back whatever UNLISTEN does: a connection kept out would hold pool.end() (and
          // so a shutdown) until its fallback timer; a failed one is dropped, not reused.
          try {
            await client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`);
            client.release();
          } catch (err) {
            client.release(err as Error);
          }
        };
      },
      close: () => pool.end(),
    };
  }
  // Loaded only in the embedded mode: a PostgreSQL-mode process never holds PGlite's code.
  const { drizzle: drizzlePglite } = await import("drizzle-orm/pglite");
  // The embedded database runs on its own thread (pglite-remote.ts), so a big push does not
  // stall other requests; an instance handed in runs here (the tests' one-off migration).
  let client: Pick<PGlite, "listen" | "close">;
  if (opts.pglite) client = opts.pglite;
  else {
    if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true });
    const { RemotePGlite } = await import("./pglite-remote.js");
    client = await RemotePGlite.open({
      ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
      ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    });
  }
  const embedded = client;
  // drizzle's PGlite driver calls query() and transaction() only, which RemotePGlite offers.
  const db = drizzlePglite(embedded as PGlite, { schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    listen: (channel, onPayload) => embedded.listen(channel, onPayload),
    close: () => embedded.close(),
  };
}

/**
 * Applies migrations/ (generated by drizzle-kit plus the custom SQL ones). Safe to run at every
 * start. `folder` is for the upgrade tests, which stop at an older migration first.
 */
export async function migrate(database: Database, folder: string = MIGRATIONS_DIR): Promise<void> {
  // A restart on a migrated database (every start but the first) reads no SQL file and loads no
  // migrator: two small queries instead.
  if (await migrated(database, folder)) return;
  if (database.kind === "postgres") {
    await migratePg(database.db as never, { migrationsFolder: folder });
  } else {
    const { migrate: migratePglite } = await import("drizzle-orm/pglite/migrator");
    await migratePglite(database.db as never, { migrationsFolder: folder });
  }
}

/**
 * Whether the database already holds the newest migration of `folder`'s journal. drizzle's
 * migrator applies the journal entries whose `when` is past the newest `created_at` it recorded,
 * so then it would apply none.
 */
async function migrated(database: Database, folder: string): Promise<boolean> {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((e) => e.when));
  const [table] = await rows<{ present: boolean }>(database.db, sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!table?.present) return false;
  const [last] = await rows<{ at: string | null }>(database.db, sql`SELECT max(created_at)::text AS at FROM drizzle.__drizzle_migrations`);
  return last?.at != null && Number(last.at) >= newest;
}

/** Runs a raw statement and returns its rows, on either driver. */
export async function rows<T>(q: Queryable, statement: SQL): Promise<T[]> {
  const result = (await q.execute(statement)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * Like rows(), as a named prepared statement: PostgreSQL parses and plans it once per connection
 * and then reuses the plan, instead of planning on every call. On the hot reads the benchmarks
 * found planning (under the RLS policies) costing more than running the query. The name carries a
 * hash of the SQL text, so one name can never stand for two texts. (PGlite ignores the name.)
 */
/** SQL text -> statement name (the texts are the code's own constants, so this stays small). */
const statementNames = new Map<string, string>();

/** The name a statement with this SQL text runs under, if namedRows ran it (error logs name queries by it). */
export function statementNameOf(sqlText: string): string | undefined {
  return statementNames.get(sqlText);
}

export async function namedRows<T>(q: Queryable, name: string, statement: SQL): Promise<T[]> {
  const inner = q as unknown as {
    session: { prepareQuery(query: { sql: string; params: unknown[] }, fields: undefined, name: string, arrayMode: boolean): { execute(): Promise<unknown> } };
    dialect: { sqlToQuery(statement: SQL): { sql: string; params: unknown[] } };
  };
  const query = inner.dialect.sqlToQuery(statement);
  let named = statementNames.get(query.sql);
  if (!named) {
    named = `${name}_${createHash("sha1").update(query.sql).digest("base64url").slice(0, 10)}`;
    statementNames.set(query.sql, named);
  }
  const result = (await inner.session.prepareQuery(query, undefined, named, false).execute()) as { rows: T[] };
  return result.rows;
}

export { sql };

/**
 * A uuid[] parameter. drizzle's sql template spreads a JS array into one parameter per element,
 * so arrays go over as a single Postgres array literal instead (uuids need no quoting).
 */
export function uuidArray(ids: readonly string[]): SQL {
  return sql`${`{${ids.join(",")}}`}::uuid[]`;
}

/** The SQLSTATE of a database error, whether drizzle wrapped it (`cause`) or not. */
export function dbErrorOf(err: unknown): { code?: string; constraint?: string } {
  const e = err as { code?: unknown; constraint?: unknown; cause?: { code?: unknown; constraint?: unknown } } | null;
  const src = e?.cause && typeof e.cause.code === "string" ? e.cause : e;
  return {
    ...(typeof src?.code === "string" ? { code: src.code } : {}),
    ...(typeof src?.constraint === "string" ? { constraint: src.constraint } : {}),
  };
}

/** A unique violation, of `constraint` when given (pg names it; PGlite may not, so its absence matches). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = dbErrorOf(err);
  return e.code === "23505" && (!constraint || e.constraint === undefined || e.constraint === constraint);
}
