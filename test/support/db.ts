/**
 * A fresh, migrated database for one test file: a PGlite loaded from the run's migrated dump, or
 * a new database on the PostgreSQL named by TEST_DATABASE_URL, copied from the run's template (the
 * real migrations ran on it once, in global-setup.ts; a file run without that setup migrates its own).
 */
import { inject } from "vitest";
import { migrate, openDatabase, type Database } from "../../server/db/client.js";
import { emptyDatabase } from "./pg-database.js";

export async function freshDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const template = inject("pgTemplate") || undefined;
    const empty = await emptyDatabase(url, "svc_test", template);
    const database = await openDatabase({ databaseUrl: empty.url, poolSize: 5 });
    if (!template) await migrate(database);
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
