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
    files: ["**/*.js", "**/*.mjs", "**/*.cjs"],
    languageOptions: { sourceType: "module", globals: { process: "readonly", console: "readonly" } },
  },
);
