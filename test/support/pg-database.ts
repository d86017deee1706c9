/**
 * A database of its own on a PostgreSQL server, for one test file: empty, or a copy of `template`
 * (a migrated database nobody is connected to); `drop()` removes it.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

async function run(serverUrl: string, statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    await c.query(statement);
  } finally {
    await c.end();
  }
}

export async function emptyDatabase(serverUrl: string, prefix = "svc_test", template?: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  if (template !== undefined && !/^[a-z0-9_]+$/.test(template)) throw new Error(`not a database name: ${template}`);
  await run(serverUrl, template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return { name, url: u.toString(), drop: () => run(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
