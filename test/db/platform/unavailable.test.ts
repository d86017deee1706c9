/**
 * A database that cannot answer right now (sync/SPEC.md PU3: "Overload: 429 or 503 with
 * Retry-After") is 503 `unavailable` with Retry-After, never a 500; any other database failure
 * stays a 500. The failures here are real database errors carrying the SQLSTATEs PostgreSQL gives
 * when it shuts down or refuses connections, raised by a trigger. test/resilience/pg-restart.test.ts
 * stops a real PostgreSQL under load, which also covers the auth library's routes (they probe the
 * database when the library fails, so a trigger cannot stand in for an outage there).
 */
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { DATABASE_RETRY_AFTER_SECONDS } from "../../../server/errors/http.js";
import { freshEmail, PASSWORD } from "../../support/auth.js";
import { type TestService } from "../../support/app.js";

test.afterEach(async ({ svc }) => {
  for (const statement of [
    "DROP TRIGGER IF EXISTS probe_fail ON things",
    "DROP TRIGGER IF EXISTS probe_fail ON auth_sessions",
    "DROP FUNCTION IF EXISTS probe_fail()",
  ])
    await svc.database.db.execute(sql.raw(statement));
});

/** Every insert into `table` fails with `sqlstate`, as a statement does when the server goes away mid-way. */
async function failInserts(svc: TestService, table: string, sqlstate: string): Promise<void> {
  await svc.database.db.execute(
    sql.raw(`CREATE FUNCTION probe_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'probe' USING ERRCODE = '${sqlstate}'; END $$`),
  );
  await svc.database.db.execute(sql.raw(`CREATE TRIGGER probe_fail BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION probe_fail()`));
}

test.for<[string, string]>([
  ["57P01", "admin_shutdown"],
  ["08006", "connection_failure"],
  ["53300", "too_many_connections"],
])("PU3 %s (%s) on one of our routes is 503 unavailable with Retry-After", async ([sqlstate], { svc }) => {
  const owner = await svc.signedIn("Una Available");
  const loc = (await owner.get("/api/v1/me")).body.locations[0].id as string;
  await failInserts(svc, "things", sqlstate);
  const res = await owner.post(`/api/v1/locations/${loc}/things`, { name: "Drill" });
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
  expect(res.body.error).toMatchObject({ code: "unavailable", details: { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS } });
});

test("any other database failure stays a 500 internal, on our routes and the library's", async ({ svc }) => {
  const owner = await svc.signedIn("Ina Ternal");
  const loc = (await owner.get("/api/v1/me")).body.locations[0].id as string;
  await failInserts(svc, "things", "25006");
  const ours = await owner.post(`/api/v1/locations/${loc}/things`, { name: "Drill" });
  expect(ours.status).toBe(500);
  expect(ours.body.error.code).toBe("internal");
  expect(ours.headers.get("retry-after")).toBeNull();
  await svc.database.db.execute(sql.raw(`CREATE TRIGGER probe_fail BEFORE INSERT ON auth_sessions FOR EACH ROW EXECUTE FUNCTION probe_fail()`));
  const email = freshEmail("internal");
  expect((await svc.client().post("/api/v1/auth/sign-up", { email, password: PASSWORD, name: "Ina Library" })).status).toBe(200);
  const library = await svc.client().post("/api/v1/auth/sign-in/email", { email, password: PASSWORD });
  expect(library.status).toBe(500);
  expect(library.body.error.code).toBe("internal");
});
