/**
 * One module shape (docs/develop/adding-a-module.md "The folder and its manifest"): a module's
 * service.ts opens the transaction, checks access and calls its read.ts / commands (a domain module)
 * or its repository.ts (a settings module); its routes files hold HTTP only. Neither builds SQL. This
 * reads every module's service.ts and routes files (routes.ts, *-routes.ts, *-route.ts, and any other
 * file that defines a route) and fails naming the file and what it found.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const MODULES = join(ROOT, "server/modules");

/** Files that still build SQL in a service or routes file, and why they may. None today. */
const EXCEPTIONS: Record<string, string> = {};

const stripComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");

/**
 * A query builder's receiver: the database or a transaction, by the names the code gives them (db,
 * tx, q, deps.db, ...). A hash's .update() or a Map's .delete() is no query.
 */
const RECEIVER = String.raw`\b(db|tx|trx|q|\w+Db|\w+Tx)`;

/** What in `text` builds SQL: an import of drizzle-orm or of the schema, a query builder call, a sql`` template. */
export function sqlBuilding(text: string): string[] {
  // A chain split over lines (`tx\n  .select(...)`) reads as one.
  const code = stripComments(text).replace(/\s+\./g, ".");
  const found: string[] = [];
  if (/from\s+["']drizzle-orm(\/[^"']*)?["']/.test(code)) found.push("imports drizzle-orm");
  if (/from\s+["'][./]*db\/schema(\/[^"']*)?(\.js)?["']/.test(code)) found.push("imports db/schema");
  for (const call of ["select", "selectDistinct", "insert", "update", "delete", "execute"])
    if (new RegExp(`${RECEIVER}\\.${call}\\(`).test(code)) found.push(`calls .${call}(`);
  if (/\bsql(\.raw)?\s*(`|<[^>]*>\s*`|\()/.test(code)) found.push("writes sql``");
  return found;
}

const isRoutesName = (name: string) => name === "routes.ts" || name.endsWith("-routes.ts") || name.endsWith("-route.ts");
const definesRoutes = (text: string) => /\bdefine(Route|Write)\(/.test(stripComments(text));

/** Each module's service.ts and routes files, as paths from the repository root. */
function serviceAndRoutesFiles(): string[] {
  const out: string[] = [];
  for (const mod of readdirSync(MODULES, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const f of readdirSync(join(MODULES, mod.name), { withFileTypes: true })) {
      if (!f.isFile() || !f.name.endsWith(".ts")) continue;
      const path = join(MODULES, mod.name, f.name);
      if (f.name === "service.ts" || isRoutesName(f.name) || definesRoutes(readFileSync(path, "utf8"))) out.push(relative(ROOT, path));
    }
  }
  return out;
}

describe("module shape: no SQL in a service or a routes file", () => {
  it("tells SQL from a call to the module's read or repository file", () => {
    expect(sqlBuilding('import { eq } from "drizzle-orm";')).toEqual(["imports drizzle-orm"]);
    expect(sqlBuilding('import { users } from "../../db/schema/index.js";')).toEqual(["imports db/schema"]);
    expect(sqlBuilding("const [row] = await tx.select().from(users);")).toEqual(["calls .select("]);
    expect(sqlBuilding("await db.insert(t).values(v);")).toEqual(["calls .insert("]);
    expect(sqlBuilding("await tx.update(t).set(v);")).toEqual(["calls .update("]);
    expect(sqlBuilding("await tx.delete(t);")).toEqual(["calls .delete("]);
    expect(sqlBuilding("await tx.execute(q);")).toEqual(["calls .execute("]);
    expect(sqlBuilding("const [row] = await deps.db\n  .select({ id: t.id })\n  .from(t);")).toEqual(["calls .select("]);
    expect(sqlBuilding("const q = sql`SELECT 1`;")).toEqual(["writes sql``"]);
    expect(sqlBuilding("rows<Row>(tx, sql<string>`SELECT 1`)")).toEqual(["writes sql``"]);
    // Calls into the module's own files, the access checks and comments about SQL are not SQL.
    expect(sqlBuilding('import { findPlace } from "./read.js";\nconst p = await findPlace(tx, id); // select the place')).toEqual([]);
    expect(sqlBuilding("/** tx.select() is read.ts's */ await locationAccess(tx, locationId);")).toEqual([]);
    expect(sqlBuilding('import type { Db, Tx } from "../../db/client.js";')).toEqual([]);
    expect(sqlBuilding("const hash = createHash('sha256').update(token).digest(); seen.delete(id);")).toEqual([]);
  });

  it("finds every module's service and routes files, the ones by other names too", () => {
    const files = serviceAndRoutesFiles();
    expect(files).toContain("server/modules/places/service.ts");
    expect(files).toContain("server/modules/places/routes.ts");
    expect(files).toContain("server/modules/account/me-routes.ts");
    // The session routes are a routes file by another name: found by the routes they define.
    expect(files).toContain("server/modules/account/sessions.ts");
  });

  it("leaves SQL to read.ts, commands and repository.ts", () => {
    const offenders: string[] = [];
    for (const path of serviceAndRoutesFiles()) {
      if (path in EXCEPTIONS) continue;
      for (const what of sqlBuilding(readFileSync(join(ROOT, path), "utf8"))) offenders.push(`${path} ${what}`);
    }
    expect(offenders, "move the query into the module's read.ts (domain) or repository.ts (settings), or list the file with why").toEqual([]);
  });

  it("lists only files that still build SQL", () => {
    for (const path of Object.keys(EXCEPTIONS)) expect(sqlBuilding(readFileSync(join(ROOT, path), "utf8")).length, path).toBeGreaterThan(0);
  });
});
