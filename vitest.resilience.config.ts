import { defineConfig } from "vitest/config";

// test/resilience/: the real server process killed and restarted, or its PostgreSQL stopped and
// started under it, while devices push. Each file starts the server several times, too slow for
// `npm test` on two cores: `npm run test:resilience` runs them, and .ci/run runs that on PGlite and
// on PostgreSQL. One file at a time, so they do not compete for the cores.
export default defineConfig({
  test: {
    env: { TZ: "UTC" },
    include: ["test/resilience/**/*.test.ts"],
    environment: "node",
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
