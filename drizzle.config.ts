import { defineConfig } from "drizzle-kit";

// Only `drizzle-kit generate` is used (never `push`): migrations/ is the single source of DDL,
// applied at start-up by server/db/migrate.ts on PGlite and PostgreSQL alike.
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema/index.ts",
  out: "./migrations",
});
