/**
 * vitest globalSetup of the e2e project: builds the web app once per run with the real Vite config,
 * so the tests drive exactly what `npm start` serves.
 */
import path from "node:path";
import { build } from "vite";

export default async function setup(): Promise<void> {
  const started = Date.now();
  // vitest sets NODE_ENV=test, which would give React's development build: test what ships.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({ configFile: path.resolve(import.meta.dirname, "../../../vite.config.ts"), mode: "production", logLevel: "warn" });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  console.log(`e2e: web app built in ${Date.now() - started} ms`);
}
