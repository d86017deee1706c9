/**
 * Every write to a synced table, to history or to inbox items goes through the write core
 * (DESIGN.md "One write path"): server/commands/ and the files of the commands the modules' manifests declare.
 * This scans every file under server/ for a write outside them (a drizzle insert, update or delete
 * of such a table, a bulk write helper handed one, or raw SQL naming one) and fails naming the
 * file and the table. A few files stay outside on purpose; each is listed with why.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { getTableName, is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../server/db/schema/index.js";
import { SHAPES } from "../../server/sync/shapes/definitions.js";

const ROOT = resolve(import.meta.dirname, "../..");
const SERVER = join(ROOT, "server");

/** Files that write those tables outside any command, and why they may. */
const EXCEPTIONS: Record<string, string> = {
  "server/modules/locations/seed.ts": "seeds a new location's first rows (its Unplaced, its registries) inside location.create and at sign-up",
  "server/modules/locations/purge.ts": "the trash purge job hard-deletes a location's rows after its days in the trash; nobody sees them any more",
  "server/modules/exports/restore-rows.ts": "a restore writes an exported location's rows back as they were, versions and history included",
  "server/modules/secrets/conversion.ts": "takes a field turned secret out of past history, inside the type.field.convert command",
};

/** Writes to a table named at run time (sql.identifier): only the restore writes synced tables so, and it is listed. */
const RUNTIME_TABLE_WRITE = /\b(insert\s+into|update|delete\s+from)\s+\$\{sql\.identifier\(/i;

/** The tables of the sync shapes (server/sync/shapes/definitions.ts) plus history, by schema export name. */
function watchedTables(): Map<string, string> {
  const watched = new Set([...Object.values(SHAPES).map((s) => s.table), "history_entries"]);
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(schema)) if (is(value, PgTable) && watched.has(getTableName(value))) out.set(name, getTableName(value));
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The files the modules' manifests take their commands from (each name in `commands: [...]`, by its import). */
function commandFiles(): Set<string> {
  const out = new Set<string>();
  for (const manifest of filesUnder(join(SERVER, "modules")).filter((f) => f.endsWith("/manifest.ts"))) {
    const text = readFileSync(manifest, "utf8");
    const from = new Map<string, string>();
    for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"(\.[^"]+)"/g))
      for (const name of m[1]!
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean))
        from.set(name, m[2]!);
    const list = /commands:\s*\[([^\]]*)\]/.exec(text)?.[1] ?? "";
    for (const name of list
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean)) {
      const source = from.get(name);
      if (!source) throw new Error(`${relative(ROOT, manifest)}: command ${name} is not imported by name`);
      out.add(relative(ROOT, resolve(dirname(manifest), source.replace(/\.js$/, ".ts"))));
    }
  }
  return out;
}

const stripComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");

/** Each table `text` writes outside the core, once. */
export function rawWrites(text: string, tables: Map<string, string>): string[] {
  const code = stripComments(text);
  const found = new Set<string>();
  for (const [exported, table] of tables) {
    const drizzle = new RegExp(`\\.(insert|update|delete)\\(\\s*${exported}\\s*\\)`);
    const bulk = new RegExp(`\\bbulk(Insert|Update)\\(\\s*[\\w.]+\\s*,\\s*${exported}\\b`);
    const raw = new RegExp(`\\b(insert\\s+into|update|delete\\s+from)\\s+${table}\\b`, "i");
    if (drizzle.test(code) || bulk.test(code) || raw.test(code)) found.add(table);
  }
  return [...found];
}

describe("writes to synced tables, history and inbox items", () => {
  const tables = watchedTables();

  it("finds the synced tables in the schema", () => {
    for (const t of ["things", "places", "locations", "memberships", "meters", "history_entries", "inbox_items"]) expect([...tables.values()]).toContain(t);
  });

  it("tells a raw write from a write through the core", () => {
    expect(rawWrites("await tx.update(things).set({ name })", tables)).toEqual(["things"]);
    expect(rawWrites("await tx.execute(sql`UPDATE inbox_items SET payload = 1`)", tables)).toEqual(["inbox_items"]);
    expect(rawWrites("await bulkInsert(ctx.tx, historyEntries, rows)", tables)).toEqual(["history_entries"]);
    expect(rawWrites("changes.update(things, next, KEYS); // update things later", tables)).toEqual([]);
    expect(rawWrites("tx.select().from(things)", tables)).toEqual([]);
  });

  it("happen only in the core, the registered command files and the listed exceptions", () => {
    const allowed = commandFiles();
    // The manifests were read: the command files of a few modules are among them.
    expect(allowed).toContain("server/modules/things/commands.ts");
    expect(allowed).toContain("server/modules/locations/lifecycle.ts");
    const offenders: string[] = [];
    for (const file of filesUnder(SERVER)) {
      const path = relative(ROOT, file);
      if (path.startsWith("server/commands/") || allowed.has(path) || path in EXCEPTIONS) continue;
      for (const table of rawWrites(readFileSync(file, "utf8"), tables)) offenders.push(`${path} writes ${table}`);
    }
    expect(offenders, "write these through a registered command (a module manifest's commands), or list the file with why").toEqual([]);
  });

  it("lists only files that exist and still write", () => {
    for (const path of Object.keys(EXCEPTIONS)) {
      const text = readFileSync(join(ROOT, path), "utf8");
      expect(rawWrites(text, tables).length > 0 || RUNTIME_TABLE_WRITE.test(text), path).toBe(true);
    }
  });
});
