/**
 * Duplicates in the app (issue "inbox-ai"): a second drill with the first one's serial shows up in
 * the inbox as a possible duplicate; the reviewer merges it with no signal, and once back online the
 * server has one drill that kept the second one's colour.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshEmail, goTo, locationIdOf, PASSWORD, signUp, startE2e, synced, type E2e } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("a possible duplicate in the inbox", () => {
  let e2e: E2e;
  beforeAll(async () => {
    e2e = await startE2e();
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it("is merged offline and the server ends with one thing", async () => {
    const { page, context } = await e2e.device();
    const email = freshEmail("dana");
    await signUp(page, "Dana Dup", email);
    const loc = await locationIdOf(page);
    const api = e2e.svc.client();
    await api.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD });
    const first = (await api.post(`/api/v1/locations/${loc}/things`, { name: "Drill", serial: "D-100" })).body as { id: string };
    const second = (await api.post(`/api/v1/locations/${loc}/things`, { name: "Yellow drill", serial: "D-100", colour: "yellow" })).body as { id: string };

    await goTo(page, "Inbox");
    const card = page.getByRole("article", { name: "Possible duplicate: Yellow drill" });
    await card.getByText("Same serial number").waitFor();
    await card.getByRole("link", { name: "Drill", exact: true }).waitFor();
    await screenshot(page, "inbox-duplicate-phone");

    await context.setOffline(true);
    await card.getByRole("button", { name: "Merge into Drill" }).click();
    await card.waitFor({ state: "detached" });
    await context.setOffline(false);
    await synced(page);

    expect((await api.get(`/api/v1/things/${second.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/things/${first.id}`)).body).toMatchObject({ name: "Drill", colour: "yellow" });
  });
});
