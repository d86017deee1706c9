import { existsSync } from "node:fs";
import { defineConfig } from "vitest/config";

// The e2e project drives Debian's Chromium (apt-get install -y chromium). Without it the project
// runs one skipped test that says so, unless E2E_REQUIRED is set (CI), where that is a failure.
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const hasChromium = existsSync(chromium);
if (!hasChromium) {
  const why = `no Chromium at ${chromium} (apt-get install -y chromium)`;
  if (process.env.E2E_REQUIRED) throw new Error(`E2E_REQUIRED is set but the e2e tests cannot run: ${why}`);
  console.warn(`\n*** e2e project SKIPPED: ${why} ***\n`);
}

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
          setupFiles: ["test/support/commands.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite instances are heavy (about 400 MB each); two files at a time fit a 2-core box.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: "e2e",
          include: hasChromium ? ["test/e2e/**/*.test.ts"] : ["test/e2e/skipped.test.ts"],
          exclude: hasChromium ? ["test/e2e/skipped.test.ts"] : [],
          environment: "node",
          // The built app on a real server (PGlite) in a real browser: one file at a time, after the db tests.
          globalSetup: hasChromium ? ["test/support/global-setup.ts", "test/e2e/support/build-client.ts"] : ["test/e2e/support/report-skip.ts"],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
