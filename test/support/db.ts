/**
 * A fresh, migrated database for one test file: a PGlite loaded from the run's migrated dump, or
 * a new database on the PostgreSQL named by TEST_DATABASE_URL (the real migrations run on it).
 */
import { inject } from "vitest";
import { migrate, openDatabase, type Database } from "../../server/db/client.js";
import { emptyDatabase } from "./pg-database.js";

export async function freshDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const empty = await emptyDatabase(url);
    const database = await openDatabase({ databaseUrl: empty.url, poolSize: 5 });
    await migrate(database);
    const close = database.close;
    database.close = async () => {
      await close();
      await empty.drop();
    };
    return database;
  }
  // On its own thread, as the embedded server runs it.
  return openDatabase({ loadDataDir: inject("pgliteDump") });
}
