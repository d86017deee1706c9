import { expect } from "vitest";
import { serviceTest as test } from "../../support/fixtures.js";
import { rows, sql } from "../../../server/db/client.js";

test("sign-up then sign-in creates the owner records", async ({ svc }) => {
  const c = svc.client();
  const up = await c.post("/api/v1/auth/sign-up", { email: "a@example.test", password: "correct horse battery", name: "Ann Lee" });
  expect(up.status).toBe(200);
  const inRes = await c.post("/api/v1/auth/sign-in/email", { email: "a@example.test", password: "correct horse battery" });
  expect(inRes.status).toBe(200);
  expect(JSON.stringify(inRes.body)).not.toContain("token");
  const counts = await rows(
    svc.database.db,
    sql`select (select count(*) from accounts)::int a, (select count(*) from locations)::int l, (select count(*) from places)::int p, (select count(*) from memberships)::int m`,
  );
  expect(counts[0]).toEqual({ a: 1, l: 1, p: 1, m: 1 });
});
