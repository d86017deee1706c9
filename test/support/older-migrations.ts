/**
 * For tests of a data migration: a copy of migrations/ that stops before one of them (a database
 * is migrated that far, given old-shape rows, then migrated the rest of the way), and an empty
 * database to run it on (PGlite in memory, or a fresh database of TEST_DATABASE_URL, dropped on close).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MIGRATIONS_DIR, openDatabase, type Database } from "../../server/db/client.js";
import { emptyDatabase } from "./pg-database.js";

/** A copy of migrations/ without migration `firstNew` and those after it. */
export function olderMigrations(firstNew: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-migrations-"));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { idx: number; tag: string }[] };
  for (const e of journal.entries.filter((x) => x.idx >= firstNew)) rmSync(path.join(dir, `${e.tag}.sql`));
  journal.entries = journal.entries.filter((e) => e.idx < firstNew);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

export async function emptyDb(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openDatabase({});
  const empty = await emptyDatabase(url);
  const database = await openDatabase({ databaseUrl: empty.url, poolSize: 2 });
  const close = database.close;
  database.close = async () => {
    await close();
    await empty.drop();
  };
  return database;
}
