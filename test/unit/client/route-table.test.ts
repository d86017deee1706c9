/**
 * The web app's route table (client/ui/routes.ts): each path builds and matches back to its own
 * parameters and to no other route, and no path of the app is written anywhere else in client/ui or
 * client/features (a string or template that starts with one of the table's first segments).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { isBeforeSignIn, paths, routes } from "../../../client/ui/routes.js";

const root = path.resolve(import.meta.dirname, "../../..");
const TABLE = path.join(root, "client/ui/routes.ts");

const all = Object.entries(routes);
/** Sample parameters for a pattern: each name gets a value of its own, with characters that need encoding. */
const sample = (pattern: string) => Object.fromEntries([...pattern.matchAll(/:(\w+)/g)].map(([, name], i) => [name!, `${name} ${i}/é`]));

describe("route table", () => {
  test("builds the app's paths", () => {
    expect(paths.home()).toBe("/");
    expect(paths.signIn()).toBe("/sign-in");
    expect(paths.thing({ locationId: "L1", thingId: "T1" })).toBe("/l/L1/things/T1");
    expect(paths.boxCheck({ locationId: "L1", thingId: "T1" })).toBe("/l/L1/things/T1/check");
    expect(paths.things({ locationId: "L1" }, { place: "P1" })).toBe("/l/L1/things?place=P1");
    expect(paths.loans({ locationId: "L1" }, new URLSearchParams())).toBe("/l/L1/loans");
    expect(paths.code({ code: "a/b c" })).toBe("/c/a%2Fb%20c");
  });

  test.each(all)("%s matches its own paths back to their parameters, and no other route does", (name, route) => {
    const params = sample(route.pattern);
    const href = (route.href as (...args: unknown[]) => string)(...(Object.keys(params).length ? [params] : []));
    expect(route.match(href)).toEqual(params);
    expect(route.match(`${href}/`.replace(/\/\/$/, "/"))).toEqual(params);
    const others = all.filter(([other, r]) => other !== name && r.match(href) !== null).map(([other]) => other);
    expect(others).toEqual([]);
  });

  test("a path one segment off matches nothing", () => {
    expect(routes.thing.match("/l/L1/things")).toBeNull();
    expect(routes.thing.match("/l/L1/things/T1/extra")).toBeNull();
    expect(routes.thing.match("/l//things/T1")).toBeNull();
    expect(routes.home.match("/locations")).toBeNull();
  });

  test("the language switch shows on the pages of the way in only", () => {
    for (const p of ["/sign-in", "/sign-up", "/setup", "/invite", "/magic", "/reset", "/confirm-email", "/two-factor"]) expect(isBeforeSignIn(p)).toBe(true);
    for (const p of ["/", "/settings", "/s/abc", "/l/L1/things"]) expect(isBeforeSignIn(p)).toBe(false);
  });
});

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourcesUnder(file);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [file] : [];
  });
}

/** Every string and template text in a file's code (comments are not code), with its line. */
function literals(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const out: { text: string; line: number }[] = [];
  const visit = (node: ts.Node) => {
    const add = (n: ts.Node & { text: string }) => out.push({ text: n.text, line: source.getLineAndCharacterOfPosition(n.getStart()).line + 1 });
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isJsxText(node)) add(node);
    // A template's every text counts (`${origin}/invite#token=...`), except an API path's tail (`/api/v1/.../${id}/reset`).
    if (ts.isTemplateExpression(node) && !node.head.text.startsWith("/api/")) [node.head, ...node.templateSpans.map((s) => s.literal)].forEach(add);
    node.forEachChild(visit);
  };
  visit(source);
  return out;
}

// Parsing every file of the app takes seconds on a busy machine.
test("no path of the app is written outside the route table", () => {
  // First segments of the table's paths ("l", "c", "sign-in", "settings", ...); the bare "/" is too
  // common a string (a separator) to tell apart, and home is built with paths.home().
  const first = new Set(all.map(([, r]) => r.pattern.split("/")[1]).filter((s): s is string => !!s));
  const looksLikeAppPath = (text: string) => {
    const m = /^\/([^/?#]+)(?:[/?#]|$)/.exec(text);
    return !!m && first.has(m[1]!);
  };
  const files = ["client/ui", "client/features"].flatMap((dir) => sourcesUnder(path.join(root, dir))).filter((f) => f !== TABLE);
  expect(files.length).toBeGreaterThan(50);
  const found = files.flatMap((file) =>
    literals(file)
      .filter((l) => looksLikeAppPath(l.text))
      .map((l) => `${path.relative(root, file)}:${l.line}: ${l.text}`),
  );
  expect(found).toEqual([]);
}, 60_000);
