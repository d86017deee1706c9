/**
 * The product has no import cycle: a cycle is an upward import in disguise (the lint rules forbid
 * the upward imports they can name; a cycle through three files slips past them), and it makes
 * module start-up order depend on who imports first. madge reads the real import graph, with
 * TypeScript's resolution of our `.js` specifiers.
 *
 * The floors of server/ (eslint.config.js) keep its folders from importing each other both ways;
 * inside server/modules/ no floor orders the domains, so the pairs of domains that import each
 * other both ways are counted here, each with why it stands.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import madge from "madge";
import { expect, test } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const graph = madge(
  ["server", "shared", "sync", "client"].map((dir) => path.join(root, dir)),
  {
    baseDir: root,
    fileExtensions: ["ts", "tsx"],
    tsConfig: path.join(root, "tsconfig.server.json"),
  },
);

test("server, shared, sync and the web app import nothing in a circle", async () => {
  const g = await graph;
  // Every file is read and resolved: a graph of unresolved imports would have no cycles to find.
  expect(g.obj()["server/app.ts"]).toContain("server/routes.ts");
  expect(g.circular()).toEqual([]);
}, 60_000);

/** Domain modules that import each other both ways, and why. Keep it short: at most two. */
const MODULE_PAIRS: Record<string, string> = {
  // Capturing "straight in" accepts the capture's own inbox item in the same op (things/straight-in.ts
  // runs inbox.accept), and accepting a draft writes the thing (inbox/commands.ts).
  "inbox <-> things": "a capture straight in is an inbox acceptance",
  // Secret fields are fields of things: a thing's writes seal and its reads open them
  // (secrets/values.ts, secrets/read.ts), and the secret commands find things by their refs.
  "secrets <-> things": "secret values are a thing's fields",
};

test("domain modules import each other both ways only where the list above says why", async () => {
  const g = (await graph).obj();
  // A module is a folder of server/modules/, or a file at its root (registry.ts, deps.ts, write.ts).
  const moduleOf = (file: string) => /^server\/modules\/([^/]+)/.exec(file)?.[1] ?? null;
  const edges = new Set<string>();
  for (const [from, tos] of Object.entries(g)) {
    for (const to of tos) {
      const a = moduleOf(from);
      const b = moduleOf(to);
      if (a && b && a !== b) edges.add(`${a} -> ${b}`);
    }
  }
  expect(edges).toContain("things -> types");
  const pairs = [...edges].flatMap((edge) => {
    const [a = "", b = ""] = edge.split(" -> ");
    return a < b && edges.has(`${b} -> ${a}`) ? [`${a} <-> ${b}`] : [];
  });
  expect(pairs.sort()).toEqual(Object.keys(MODULE_PAIRS).sort());
  expect(pairs.length).toBeLessThanOrEqual(2);
}, 60_000);
