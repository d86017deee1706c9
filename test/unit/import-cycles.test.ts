/**
 * The product has no import cycle: a cycle is an upward import in disguise (the lint rules forbid
 * the upward imports they can name; a cycle through three files slips past them), and it makes
 * module start-up order depend on who imports first. madge reads the real import graph, with
 * TypeScript's resolution of our `.js` specifiers.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import madge from "madge";
import { expect, test } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

test("server, shared, sync and the web app import nothing in a circle", async () => {
  const graph = await madge(
    ["server", "shared", "sync", "client"].map((dir) => path.join(root, dir)),
    {
      baseDir: root,
      fileExtensions: ["ts", "tsx"],
      tsConfig: path.join(root, "tsconfig.server.json"),
    },
  );
  // Every file is read and resolved: a graph of unresolved imports would have no cycles to find.
  expect(graph.obj()["server/app.ts"]).toContain("server/routes.ts");
  expect(graph.circular()).toEqual([]);
}, 60_000);
