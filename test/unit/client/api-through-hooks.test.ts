/**
 * Screens and parts (client/features/**\/*.tsx) read and write the server through their feature's
 * hooks.ts, never the API modules themselves (client/sync/api.ts, client/auth/*); the error class
 * (ApiError) and types may still be imported, to tell failures apart. The files not moved over yet
 * are listed: the list may only shrink, and a file that no longer calls the API must leave it.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const API_MODULES = ["client/sync/api.ts", "client/auth/auth-api.ts", "client/auth/security-api.ts", "client/auth/passkey.ts"].map((f) => path.join(root, f));
/** What a component may take from an API module: telling a failure apart is not calling the server. */
const ALLOWED = new Set(["ApiError"]);

/** Components that still call the API themselves, to move into their feature's hooks.ts (issue #33). */
const STILL_DIRECT = [
  "client/features/box-checks/BoxCheck.tsx",
  "client/features/extraction/ThingExtraction.tsx",
  "client/features/share/ShareLink.tsx",
  "client/features/share/SharePreview.tsx",
];

function components(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return components(file);
    return name.endsWith(".tsx") ? [file] : [];
  });
}

/** The names a file imports as values from an API module (type-only imports aside). */
function apiValues(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  return source.statements.flatMap((s) => {
    if (!ts.isImportDeclaration(s) || !ts.isStringLiteral(s.moduleSpecifier) || s.importClause?.isTypeOnly) return [];
    const target = path.resolve(path.dirname(file), s.moduleSpecifier.text).replace(/\.js$/, ".ts");
    if (!API_MODULES.includes(target)) return [];
    const bindings = s.importClause?.namedBindings;
    if (!bindings || ts.isNamespaceImport(bindings)) return ["*"];
    return bindings.elements.filter((e) => !e.isTypeOnly).map((e) => (e.propertyName ?? e.name).text);
  });
}

// Parsing every file of the app takes seconds on a busy machine.
test("screens and parts reach the server through their feature's hooks", () => {
  const files = components(path.join(root, "client/features"));
  expect(files.length).toBeGreaterThan(50);
  const direct = files
    .filter((file) => apiValues(file).some((name) => !ALLOWED.has(name)))
    .map((file) => path.relative(root, file).split(path.sep).join("/"))
    .sort();
  expect(direct).toEqual([...STILL_DIRECT].sort());
}, 60_000);
