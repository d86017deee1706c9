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
 * A file that shows what one service cannot (a cookie an https service sets, read by a plain one;
 * sign-up open on one and closed on another) takes `sharedDbTest` and starts each with `serviceOn`.
 */
import { test } from "vitest";
import type { Database } from "../../server/db/client.js";
import { startService, type ServiceOptions, type TestService } from "./app.js";
import { freshDatabase } from "./db.js";
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

/**
 * Several services on one fresh database, each with settings of its own: `serviceOn(env)` starts
 * one; all are closed after the file's last test, and the database after them.
 */
export const sharedDbTest = test
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; this one has none
  .extend("database", { scope: "file" }, async ({}, { onCleanup }) => {
    const database = await freshDatabase();
    onCleanup(() => database.close());
    return database;
  })
  .extend("serviceOn", { scope: "file" }, async ({ database }, { onCleanup }) => {
    const started: TestService[] = [];
    onCleanup(async () => {
      for (const svc of started.reverse()) await svc.close();
    });
    // Each service's close leaves the database to the fixture: the others still use it.
    const shared = (): Database => ({ ...database, close: async () => undefined });
    return async (env: Record<string, string> = {}, opts?: ServiceOptions): Promise<TestService> => {
      const svc = await startService(env, shared(), opts);
      // A test may close its own service early (to show what a restart or a second one does): once is enough.
      const close = svc.close.bind(svc);
      let closing: Promise<void> | undefined;
      svc.close = () => (closing ??= close());
      started.push(svc);
      return svc;
    };
  });
