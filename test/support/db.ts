/**
 * A fresh, migrated database for one test file: a PGlite loaded from the run's migrated dump, or
 * a new database on the PostgreSQL named by TEST_DATABASE_URL (the real migrations run on it).
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { migrate, openDatabase, type Database } from "../../server/db/client.js";

export async function freshDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `svc_test_${Date.now()}_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: u.toString(), poolSize: 5 });
    await migrate(database);
    const close = database.close;
    database.close = async () => {
      await close();
      const a = new pg.Client({ connectionString: url });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    };
    return database;
  }
  // On its own thread, as the embedded server runs it.
  return openDatabase({ loadDataDir: inject("pgliteDump") });
}
