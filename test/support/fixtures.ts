/**
 * The setup most API test files share, as vitest fixtures: a running service on a fresh database
 * and the owner's location with one signed-in client per role (and an outsider). Both are made once
 * per file, when the first test asks for them, and the service is closed after the file's last test.
 *
 *   import { apiTest as test } from "../support/fixtures.js";
 *   test("a member creates a thing", async ({ loc, as }) => { ... });
 */
import { test } from "vitest";
import { startService } from "./app.js";
import { locationWithRoles } from "./members.js";

export const apiTest = test
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; this one has none
  .extend("svc", { scope: "file" }, async ({}, { onCleanup }) => {
    const svc = await startService();
    onCleanup(() => svc.close());
    return svc;
  })
  .extend("team", { scope: "file" }, async ({ svc }) => locationWithRoles(svc))
  .extend("loc", { scope: "file" }, async ({ team }) => team.locationId)
  .extend("as", { scope: "file" }, async ({ team }) => team.as);
