/**
 * The setup db test files share, as vitest fixtures: a running service on a fresh database and the
 * owner's location with one signed-in client per role (and an outsider). Both are made once per
 * file, when the first test (or a suite hook) asks for them, and closed after the file's last test.
 *
 *   import { apiTest as test } from "../../support/fixtures.js";
 *   test("a member creates a thing", async ({ loc, as }) => { ... });
 *
 * A file whose service needs settings of its own overrides `serviceEnv` at its top level:
 *
 *   test.override("serviceEnv", { SVC_SIGNUP_OPEN: "" });
 *
 * and a file that needs mail takes `mailTest`, whose service sends to a local SMTP server (`smtp`).
 */
import { test } from "vitest";
import { startService } from "./app.js";
import { locationWithRoles } from "./members.js";
import { startSmtp } from "./smtp.js";

/** A running service, started with the file's `serviceEnv` (none by default). */
export const serviceTest = test
  .extend("serviceEnv", { scope: "file" }, {} as Record<string, string>)
  .extend("svc", { scope: "file" }, async ({ serviceEnv }, { onCleanup }) => {
    const svc = await startService(serviceEnv);
    onCleanup(() => svc.close());
    return svc;
  });

export const apiTest = serviceTest
  .extend("team", { scope: "file" }, async ({ svc }) => locationWithRoles(svc))
  .extend("loc", { scope: "file" }, async ({ team }) => team.locationId)
  .extend("as", { scope: "file" }, async ({ team }) => team.as);

/** `serviceTest` whose service mails through a local SMTP server that keeps what it receives. */
export const mailTest = serviceTest
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; this one has none
  .extend("smtp", { scope: "file" }, async ({}, { onCleanup }) => {
    const smtp = await startSmtp();
    onCleanup(() => smtp.close());
    return smtp;
  })
  .extend("serviceEnv", { scope: "file" }, async ({ smtp }) => ({ SVC_SMTP_URL: smtp.url }));
