/**
 * The e2e setup as vitest fixtures, so a file states what it needs instead of repeating it:
 *
 * - `e2e`: the built app on a running service and a browser, made once per file (on the file's
 *   first use) and closed after its last test. A file needing settings of its own overrides
 *   `e2eEnv` at its top level: `test.override("e2eEnv", { SVC_SIGNUP_OPEN: "" })`.
 * - `newPerson(name, handle, device?)`: a new device (phone-sized unless `device` gives a viewport)
 *   on which a fresh person (email from `handle`) signs up through the app, with the location the app opened and `client()` for an HTTP
 *   client signed in as that person.
 *
 * `aiE2eTest` is the same with the AI pipeline (test/e2e/support/ai.ts) behind `e2e`: `standin`
 * is the provider stand-in the service reads photos through.
 */
import type { BrowserContext, Page } from "playwright-core";
import { expect, test } from "vitest";
import type { HttpClient } from "../../support/app.js";
import { startAiE2e } from "./ai.js";
import { freshEmail, locationIdOf, PASSWORD, signUp, startE2e, type E2e } from "./app.js";

export interface Person {
  context: BrowserContext;
  page: Page;
  email: string;
  /** The location the app opened after sign-up (the person's own). */
  locationId: string;
  /** A new HTTP client signed in as this person with the password. */
  client(): Promise<HttpClient>;
}

type DeviceOptions = Parameters<E2e["device"]>[0];

async function signedUpPerson(e2e: E2e, name: string, handle: string, device?: DeviceOptions): Promise<Person> {
  const { context, page } = await e2e.device(device);
  const email = freshEmail(handle);
  await signUp(page, name, email);
  const locationId = await locationIdOf(page);
  return {
    context,
    page,
    email,
    locationId,
    async client() {
      const client = e2e.svc.client();
      expect((await client.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
      return client;
    },
  };
}

export const e2eTest = test
  .extend("e2eEnv", { scope: "file" }, {} as Record<string, string>)
  .extend("e2e", { scope: "file" }, async ({ e2eEnv }, { onCleanup }) => {
    const e2e = await startE2e(e2eEnv);
    onCleanup(() => e2e.close());
    return e2e;
  })
  .extend(
    "newPerson",
    async ({ e2e }) =>
      (name: string, handle: string, device?: DeviceOptions) =>
        signedUpPerson(e2e, name, handle, device),
  );

export const aiE2eTest = e2eTest
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern; this one has none
  .extend("ai", { scope: "file" }, async ({}, { onCleanup }) => {
    const ai = await startAiE2e();
    onCleanup(() => ai.close());
    return ai;
  })
  .extend("e2e", { scope: "file" }, async ({ ai }) => ai.e2e)
  .extend("standin", { scope: "file" }, async ({ ai }) => ai.standin);
