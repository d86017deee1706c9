// @ts-check
/**
 * ESLint flat config: typescript-eslint's recommended type-checked rules on every TypeScript file,
 * with the two rules we care most about as errors (a forgotten await; a switch that misses a case
 * of a union such as an op name or an error code). The tsconfig files give the type information:
 * tsconfig.test.json covers server/, shared/, sync/, test/ and the tool configs; tsconfig.client.json
 * covers client/ (DOM lib), tsconfig.sw.json the service worker (WebWorker lib). A few style rules that fight the codebase's conventions are relaxed.
 */
import path from "node:path";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The import direction (DESIGN.md "Layout and dependency direction"): `shared <- sync <- {server,
 * client}`; inside server/, the floors below (serverFloors). Each entry is a folder and the imports
 * it may not make, as regular expressions over the import's source as written (relative paths; the
 * tree uses no path aliases). ESLint's own no-restricted-imports checks them, type-only imports
 * and re-exports included.
 * @type {{ folder: string, forbid: { regex: string, message: string }[] }[]}
 */
const importDirection = [
  {
    // The error classes and their mappings sit under everything else in server/ (their floor in
    // serverFloors below); besides shared/, sync/protocol.ts (the drop reasons) and zod they import no package.
    folder: "server/errors",
    forbid: [
      { regex: "^\\.\\./(?!\\.\\./(shared|sync)/)", message: "server/errors/ imports only shared/, sync/ and zod, nothing else in server/." },
      { regex: "^(?!\\.|zod$)", message: "server/errors/ imports no package but zod." },
    ],
  },
  {
    folder: "sync",
    forbid: [
      { regex: "^(\\.\\./)+(server|client)(/|$)", message: "sync/ is the protocol both sides share: it imports only shared/." },
      { regex: "^node:", message: "sync/ is pure and isomorphic: no node imports." },
    ],
  },
  {
    // shared/ and sync/ are flat folders: any "../" from shared/ leaves it.
    folder: "shared",
    forbid: [
      { regex: "^\\.\\./", message: "shared/ is the contract: it imports nothing outside shared/." },
      { regex: "^node:", message: "shared/ does no I/O: no node imports." },
    ],
  },
  {
    folder: "client",
    forbid: [{ regex: "^(\\.\\./)+server(/|$)", message: "The web app never imports the server: share through shared/ and sync/." }],
  },
];

/**
 * The floors of server/, lowest first (DESIGN.md "Layout and dependency direction"; each module's
 * own routes -> service -> commands/read order is moduleLayers below). Every folder of server/, and
 * every file at its root, stands on one floor and imports only what stands on a lower floor: nothing
 * above it, nor a neighbour on its own floor, so no two folders import each other. A lower folder
 * that needs a domain's function takes it as a value from the composition root (server/services.ts,
 * server/routes.ts), as auth's sign-up hook and push's executor do. A new folder or root file must
 * be given a floor here: until it is, each of its files is an error.
 * @type {{ names: string[], says: string }[]}
 */
const serverFloors = [
  { names: ["errors"], says: "the error classes and their mappings" },
  { names: ["config.ts", "pdf"], says: "the configuration and the PDF renderer" },
  { names: ["db"], says: "the data layer: schema, transactions as an actor, paging, the secret box" },
  { names: ["access", "jobs", "mail"], says: "the role questions, the queue library and the mailer" },
  { names: ["auth", "commands"], says: "sign-in glue and the write core, which know no domain" },
  { names: ["http"], says: "the edge, which runs no command and knows no domain" },
  { names: ["oauth"], says: "the OAuth server and the guarded outbound fetch" },
  { names: ["ai"], says: "AI providers, keys, budget and the queue of runs, which know no domain" },
  { names: ["sync"], says: "push and shapes, which reach the domains only through what the route table hands them" },
  { names: ["modules"], says: "the domains" },
  { names: ["mcp"], says: "the MCP tools, over the domains' services" },
  { names: ["services.ts"], says: "the composition root" },
  { names: ["routes.ts", "schedule.ts"], says: "the route table and the job schedule" },
  { names: ["app.ts"], says: "the express app" },
  { names: ["main.ts"], says: "the process" },
];

/**
 * Imports that break a floor and are known, file -> import as resolved, each with why it still
 * stands. Keep this empty: an entry is a debt with a reason, not a way around the rule.
 * @type {Record<string, string>}
 */
const floorExceptions = {};

const serverRoot = path.join(import.meta.dirname, "server");
const floorOf = new Map(serverFloors.flatMap(({ names }, i) => names.map((name) => [name, i])));
/** What a path under server/ stands on: its first segment (a folder, or a root file as its .ts), or null outside server/. */
const placeOf = (/** @type {string} */ file) => {
  const rel = path.relative(serverRoot, file);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return null;
  const [first = ""] = rel.split(path.sep);
  return first.replace(/\.js$/, ".ts");
};
const named = (/** @type {string} */ place) => `server/${place}${place.endsWith(".ts") ? "" : "/"}`;
const floorWords = (/** @type {number} */ i) => `floor ${i + 1}, ${serverFloors[i]?.says}`;

/** The floor rule: an import (type-only, re-export or import() too) of server/ that does not stand lower is an error. */
const importFloorRule = {
  meta: { type: "problem", schema: [] },
  create(/** @type {import("eslint").Rule.RuleContext} */ context) {
    const from = placeOf(context.filename);
    if (from === null) return {};
    const own = floorOf.get(from);
    if (own === undefined) {
      return {
        Program(node) {
          context.report({ node, message: `${named(from)} has no floor: give it one in serverFloors (eslint.config.js).` });
        },
      };
    }
    const check = (/** @type {import("estree").Node} */ node, /** @type {unknown} */ source) => {
      if (typeof source !== "string" || !source.startsWith(".")) return;
      const to = placeOf(path.resolve(path.dirname(context.filename), source));
      if (to === null || to === from) return;
      const floor = floorOf.get(to);
      if (floor !== undefined && floor < own) return;
      const edge = `${path.relative(import.meta.dirname, context.filename)} -> ${path.relative(import.meta.dirname, path.resolve(path.dirname(context.filename), source)).replace(/\.js$/, ".ts")}`;
      if (edge.split(path.sep).join("/") in floorExceptions) return;
      const where = floor === undefined ? "has no floor" : floor === own ? `stands beside it (${floorWords(floor)})` : `stands above it (${floorWords(floor)})`;
      context.report({
        node,
        message: `${named(from)} (${floorWords(own)}) imports only lower floors, and ${named(to)} ${where}: move the code down, or have the composition root hand it in.`,
      });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === "Literal" && check(node, node.source.value),
    };
  },
};

/**
 * Inside a domain module (server/modules/<domain>/): routes -> service -> commands/read -> db.
 * routes.ts is HTTP only and asks its service; service.ts opens the transaction and runs commands
 * and reads; commands.ts and read.ts never reach back up. Only the module's manifest.ts imports
 * its routes.ts, and only the composition root imports the list of manifests (modules/index.ts). The paths are relative, so "./commands.js" and
 * "../things/commands.js" are the same kind of import here.
 * @type {Record<string, { regex: string, message: string }>}
 */
const moduleRule = {
  routesFromOutside: {
    regex: "(^|/)modules/[^/]+/routes\\.js$",
    message: "Only a module's manifest.ts imports its routes.ts: share the module's service.ts or read.ts instead.",
  },
  routes: { regex: "(^|/)routes\\.js$", message: "Only a module's manifest.ts imports its routes.ts: import its service.ts or read.ts." },
  list: {
    regex: "^\\.\\.?/index\\.js$",
    message: "Only the composition root (server/routes.ts, schedule.ts, services.ts) imports the list of modules (server/modules/index.ts).",
  },
  service: { regex: "(^|/)service\\.js$", message: "commands.ts, read.ts and the files they are split into sit under service.ts: they never import it." },
  commandsFromRoutes: {
    regex: "(^|/)(commands|registry)(\\.js$|/)",
    message: "routes.ts runs no command: its service.ts does, in the transaction it opens (runOne).",
  },
  dbFromRoutes: { regex: "(^|/)db/", message: "routes.ts does no database work: its service.ts opens the transaction and reads through read.ts." },
  readFromRoutes: { regex: "(^|/)read\\.js$", message: "routes.ts asks its service.ts, which reads through read.ts in its transaction." },
  routesOfAnother: {
    regex: "^\\.\\./[^/]+/routes\\.js$",
    message: "A module's manifest.ts names its own routes only: another module's routes are that module's manifest's.",
  },
};

/** Which module files may not import what; later entries repeat the general one (a later match replaces the rule's options). */
const moduleLayers = [
  { files: ["server/modules/**/*.ts"], forbid: [moduleRule.routes, moduleRule.list] },
  {
    files: ["server/modules/*/routes.ts"],
    forbid: [moduleRule.routes, moduleRule.list, moduleRule.commandsFromRoutes, moduleRule.dbFromRoutes, moduleRule.readFromRoutes],
  },
  // Everything in a module below its service (commands.ts, read.ts and the files they are split
  // into: create.ts, undo.ts, values.ts, ...) never reaches back up to a service or routes.
  {
    files: ["server/modules/*/*.ts"],
    // gate.ts (the edge's token check) and redeem.ts (a managed account's first sign-in) are entry
    // points beside their module's service, as routes.ts is, not below it.
    ignores: [
      "server/modules/*/routes.ts",
      // Routes files split out of routes.ts (me-routes.ts, and sessions.ts by another name) ask the service too.
      "server/modules/*/*-routes.ts",
      "server/modules/account/sessions.ts",
      "server/modules/*/service.ts",
      "server/modules/tokens/gate.ts",
      "server/modules/managed-accounts/redeem.ts",
      // Imports write through other modules' services (place, thing and file creation), as a device's ops would.
      "server/modules/exports/import-*.ts",
    ],
    forbid: [moduleRule.routes, moduleRule.list, moduleRule.service],
  },
  // manifest.ts stands above its module's routes.ts (server/modules/manifest.ts): it names that
  // module's routes, commands and jobs for the composition root, and nobody's else.
  { files: ["server/modules/*/manifest.ts"], forbid: [moduleRule.routesOfAnother, moduleRule.list] },
];

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "scratch/**", "migrations/**", "data/**", "coverage/**"] },
  js.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx", "**/*.mts", "**/*.cts"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        project: ["./tsconfig.test.json", "./tsconfig.client.json", "./tsconfig.sw.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      // A switch over a union without a default must name every member. A default still counts as
      // covering the rest (otherwise `switch (err.code)` on `string | undefined` demands a case for
      // undefined), so write exhaustive switches without one.
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      // `_`-prefixed names are deliberately unused (Express error handlers need four parameters).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // Express handlers are often async; Express 5 awaits them, so a promise-returning handler is fine.
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { arguments: false, attributes: false } }],
      // Template strings carry numbers and uuids all the time.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true, allowBoolean: true, allowNullish: true }],
      // `any` crosses library boundaries (route registries, driver results); keep it visible, not fatal.
      "@typescript-eslint/no-explicit-any": "warn",
      // Route handlers and adapters are `async` to satisfy a Promise-returning interface.
      "@typescript-eslint/require-await": "off",
      // A redundant cast is noise, not a defect: visible, never fatal.
      "@typescript-eslint/no-unnecessary-type-assertion": "warn",
    },
  },
  {
    // The route registry is deliberately RouteDef<any, ...>: each route's zod schemas type its own
    // handler, and the registry only passes parsed values through.
    files: ["server/http/route.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-unsafe-assignment": "off" },
  },
  {
    // Tests poke at untyped JSON bodies and raw driver results.
    files: ["test/**/*.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-return": "off",
      "@typescript-eslint/no-unsafe-call": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/unbound-method": "off",
    },
  },
  {
    // Everywhere else in server/: no module's routes.ts (the manifests name them).
    files: ["server/**/*.ts"],
    ignores: ["server/modules/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [moduleRule.routesFromOutside] }] },
  },
  {
    files: ["server/**/*.ts"],
    plugins: { layers: { rules: { floor: importFloorRule } } },
    rules: { "layers/floor": "error" },
  },
  ...importDirection.map(({ folder, forbid }) => ({
    files: [`${folder}/**/*.ts`, `${folder}/**/*.tsx`],
    rules: { "no-restricted-imports": ["error", { patterns: folder.startsWith("server/") ? [...forbid, moduleRule.routesFromOutside] : forbid }] },
  })),
  ...moduleLayers.map(({ files, ignores, forbid }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: { "no-restricted-imports": ["error", { patterns: forbid }] },
  })),
  {
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    languageOptions: { sourceType: "module", globals: { process: "readonly", console: "readonly" } },
  },
);
