/**
 * Builds, once per run, a migrated PGlite data directory that each db test file copies (opening a
 * fresh PGlite and migrating costs seconds; loading a dump is much faster). With
 * TEST_DATABASE_URL, checks the server is reachable instead; each file then makes its own database.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrate, openDatabase } from "../../server/db/client.js";

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.end();
    project.provide("pgliteDump", "");
    return;
  }
  const pglite = new PGlite();
  const database = await openDatabase({ pglite });
  await migrate(database);
  const dump = await pglite.dumpDataDir("none");
  const dir = mkdtempSync(path.join(tmpdir(), "svc-test-"));
  const file = path.join(dir, "migrated.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await pglite.close();
  project.provide("pgliteDump", file);
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteDump: string;
  }
}
