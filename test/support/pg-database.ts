/** An empty database of its own on a PostgreSQL server, for one test file; `drop()` removes it. */
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

export async function emptyDatabase(serverUrl: string, prefix = "svc_test"): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}_${randomBytes(4).toString("hex")}`;
  await run(serverUrl, `CREATE DATABASE ${name}`);
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => run(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
