// @ts-check
/**
 * ESLint flat config: typescript-eslint's recommended type-checked rules on every TypeScript file,
 * with the two rules we care most about as errors (a forgotten await; a switch that misses a case
 * of a union such as an op name or an error code). The tsconfig files give the type information:
 * tsconfig.test.json covers server/, shared/, sync/, test/ and the tool configs; tsconfig.client.json
 * covers client/ (DOM lib), tsconfig.sw.json the service worker (WebWorker lib). A few style rules that fight the codebase's conventions are relaxed.
 */
import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * The import direction (DESIGN.md "Layout and dependency direction"): `shared <- sync <- {server,
 * client}`, and inside server/ `routes -> service -> commands/read -> db`, nothing upward. Each
 * entry is a folder and the imports it may not make, as regular expressions over the import's
 * source as written (relative paths; the tree uses no path aliases). ESLint's own
 * no-restricted-imports checks them, type-only imports and re-exports included.
 * @type {{ folder: string, forbid: { regex: string, message: string }[] }[]}
 */
const importDirection = [
  {
    folder: "server/commands",
    forbid: [
      {
        regex: "(^|/)modules(/|$)",
        message: "server/commands/ is the write core and knows no domain: it takes the commands as a registry (server/modules/registry.ts).",
      },
      { regex: "(^|/)http(/|$)", message: "server/commands/ runs under the edge, not on it: take error classes and mappings from server/errors/." },
    ],
  },
  {
    // "My role in the locations I can see" and the money rule, asked by commands/, modules/,
    // sync/, mcp/ and oauth/: it stands on the data layer, the error classes and the contract only.
    folder: "server/access",
    forbid: [
      {
        regex: "^\\.\\./(?!(db|errors)/|\\.\\./shared/)",
        message: "server/access/ imports only server/db/, server/errors/ and shared/: the callers above it ask, it never asks them.",
      },
    ],
  },
  {
    // The error classes and their mappings sit under everything else in server/: they import only
    // shared/ (codes, text rules), sync/protocol.ts (the drop reasons) and zod.
    folder: "server/errors",
    forbid: [
      { regex: "^\\.\\./(?!\\.\\./(shared|sync)/)", message: "server/errors/ imports only shared/, sync/ and zod, nothing else in server/." },
      { regex: "^(?!\\.|zod$)", message: "server/errors/ imports no package but zod." },
    ],
  },
  {
    folder: "server/http",
    forbid: [
      { regex: "(^|/)commands(/|$)", message: "server/http/ is the edge and runs no command." },
      { regex: "(^|/)modules(/|$)", message: "server/http/ is the edge and knows no domain: have app.ts pass in what it needs." },
      { regex: "(^|/)access(/|$)", message: "server/http/ is the edge and knows no location: have app.ts pass in what it needs." },
    ],
  },
  {
    folder: "server/db",
    forbid: [
      { regex: "(^|/)modules(/|$)", message: "server/db/ is the data layer and knows no domain." },
      { regex: "(^|/)access(/|$)", message: "server/db/ is the data layer: server/access/ stands on it, not under it." },
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
 * Inside a domain module (server/modules/<domain>/): routes -> service -> commands/read -> db.
 * routes.ts is HTTP only and asks its service; service.ts opens the transaction and runs commands
 * and reads; commands.ts and read.ts never reach back up. Only the route table (server/routes.ts)
 * imports a module's routes.ts. The paths are relative, so "./commands.js" and
 * "../things/commands.js" are the same kind of import here.
 * @type {Record<string, { regex: string, message: string }>}
 */
const moduleRule = {
  routesFromOutside: {
    regex: "(^|/)modules/[^/]+/routes\\.js$",
    message: "Only the route table (server/routes.ts) imports a module's routes.ts: share the module's service.ts or read.ts instead.",
  },
  routes: { regex: "(^|/)routes\\.js$", message: "Only the route table (server/routes.ts) imports a module's routes.ts: import its service.ts or read.ts." },
  service: { regex: "(^|/)service\\.js$", message: "commands.ts, read.ts and the files they are split into sit under service.ts: they never import it." },
  commandsFromRoutes: {
    regex: "(^|/)(commands|registry)(\\.js$|/)",
    message: "routes.ts runs no command: its service.ts does, in the transaction it opens (runOne).",
  },
  dbFromRoutes: { regex: "(^|/)db/", message: "routes.ts does no database work: its service.ts opens the transaction and reads through read.ts." },
  readFromRoutes: { regex: "(^|/)read\\.js$", message: "routes.ts asks its service.ts, which reads through read.ts in its transaction." },
};

/** Which module files may not import what; later entries repeat the general one (a later match replaces the rule's options). */
const moduleLayers = [
  { files: ["server/modules/**/*.ts"], forbid: [moduleRule.routes] },
  { files: ["server/modules/*/routes.ts"], forbid: [moduleRule.routes, moduleRule.commandsFromRoutes, moduleRule.dbFromRoutes, moduleRule.readFromRoutes] },
  // Everything in a module below its service (commands.ts, read.ts and the files they are split
  // into: create.ts, undo.ts, values.ts, ...) never reaches back up to a service or routes.
  {
    files: ["server/modules/*/*.ts"],
    // gate.ts (the edge's token check) and redeem.ts (a managed account's first sign-in) are entry
    // points beside their module's service, as routes.ts is, not below it.
    ignores: [
      "server/modules/*/routes.ts",
      "server/modules/*/service.ts",
      "server/modules/tokens/gate.ts",
      "server/modules/managed-accounts/redeem.ts",
      // Imports write through other modules' services (place, thing and file creation), as a device's ops would.
      "server/modules/exports/import-*.ts",
    ],
    forbid: [moduleRule.routes, moduleRule.service],
  },
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
    // Everywhere else in server/, the route table excepted: no module's routes.ts.
    files: ["server/**/*.ts"],
    ignores: ["server/routes.ts", "server/modules/**"],
    rules: { "no-restricted-imports": ["error", { patterns: [moduleRule.routesFromOutside] }] },
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
