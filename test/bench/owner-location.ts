/**
 * What the in-process benchmarks (export-memory, report-memory) start from: a migrated database
 * (embedded PGlite in a temporary folder, or a fresh PostgreSQL database with BENCH_DATABASE_URL),
 * a blob store on disk, and a user with their personal location, made as sign-up makes them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { v7 as uuidv7 } from "uuid";
import { migrate, openDatabase, rows, sql, type Database } from "../../server/db/client.js";
import { bootstrapUser } from "../../server/modules/locations/bootstrap.js";
import { DiskBlobStore } from "../../server/modules/files/storage.js";
import { benchDatabase } from "./support.js";

export interface OwnerLocation {
  database: Database;
  store: DiskBlobStore;
  dataDir: string;
  userId: string;
  locationId: string;
  close(): Promise<void>;
}

export async function ownerLocation(prefix: string): Promise<OwnerLocation> {
  const pgDb = process.env.BENCH_DATABASE_URL ? await benchDatabase() : null;
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const database = await openDatabase(pgDb ? { databaseUrl: pgDb.url } : { dataDir: path.join(dataDir, "pglite") });
  await migrate(database);
  const { db } = database;
  const userId = uuidv7();
  await db.execute(sql`INSERT INTO users (id, name, email, email_verified) VALUES (${userId}, 'Bench', ${`bench-${userId}@example.test`}, true)`);
  await bootstrapUser(db, { id: userId, name: "Bench" });
  const [loc] = await rows<{ id: string }>(
    db,
    sql`SELECT l.id::text AS id FROM locations l JOIN accounts a ON a.id = l.account_id WHERE a.owner_user_id = ${userId}`,
  );
  return {
    database,
    store: new DiskBlobStore(path.join(dataDir, "files")),
    dataDir,
    userId,
    locationId: loc!.id,
    async close() {
      await database.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
