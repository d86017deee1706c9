/**
 * Screens and parts (client/features/**\/*.tsx) read and write the server through their feature's
 * hooks.ts, never the API modules themselves (client/sync/api.ts, client/auth/*); the error class
 * (ApiError) and types may still be imported, to tell failures apart. Every component went over
 * (issue #33): one that imports a call from an API module is named by this test's failure.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, test } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const API_MODULES = ["client/sync/api.ts", "client/auth/auth-api.ts", "client/auth/security-api.ts", "client/auth/passkey.ts"].map((f) => path.join(root, f));
/** What a component may take from an API module: telling a failure apart is not calling the server. */
const ALLOWED = new Set(["ApiError"]);

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
  expect(direct).toEqual([]);
}, 60_000);
