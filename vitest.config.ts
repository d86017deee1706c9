import { defineConfig } from "vitest/config";

// Projects as DESIGN.md "Tests" names them. `db` tests run on a fresh PGlite per file, or on a
// fresh database of the PostgreSQL named by TEST_DATABASE_URL (.ci/run does both).
export default defineConfig({
  test: {
    env: { TZ: "UTC" },
    projects: [
      { test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" } },
      {
        test: {
          name: "db",
          // contract/: real third-party clients (@electric-sql/client, ...) against our server.
          include: ["test/db/**/*.test.ts", "test/contract/**/*.test.ts"],
          environment: "node",
          globalSetup: ["test/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite instances are heavy (about 400 MB each); two files at a time fit a 2-core box.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
