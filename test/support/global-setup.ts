/**
 * Builds, once per run, a migrated PGlite data directory that each db test file copies (opening a
 * fresh PGlite and migrating costs seconds; loading a dump is much faster). With
 * TEST_DATABASE_URL, migrates one template database instead, which each file copies into a
 * database of its own (CREATE DATABASE ... TEMPLATE: a file copy, where the migrations took about
 * 2.5 s per file, a few minutes of every PostgreSQL run); the run's end drops it.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrate, openDatabase } from "../../server/db/client.js";
import { emptyDatabase } from "./pg-database.js";

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.end();
    const template = await emptyDatabase(url, "svc_template");
    const database = await openDatabase({ databaseUrl: template.url, poolSize: 1 });
    await migrate(database);
    await database.close(); // a template copies only while nobody is connected to it
    project.provide("pgliteDump", "");
    project.provide("pgTemplate", template.name);
    return template.drop;
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
  project.provide("pgTemplate", "");
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteDump: string;
    /** The migrated template database on TEST_DATABASE_URL's server, or "" on PGlite. */
    pgTemplate: string;
  }
}
