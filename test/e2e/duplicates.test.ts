/**
 * Duplicates in the app (issue "inbox-ai"): a second drill with the first one's serial shows up in
 * the inbox as a possible duplicate; the reviewer merges it with no signal, and once back online the
 * server has one drill that kept the second one's colour.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { goTo, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("a possible duplicate in the inbox", () => {
  it("is merged offline and the server ends with one thing", async ({ newPerson }) => {
    const { page, context, locationId: loc, client } = await newPerson("Dana Dup", "dana");
    const api = await client();
    const first = (await api.post(`/api/v1/locations/${loc}/things`, { name: "Drill", serial: "D-100" })).body as { id: string };
    const second = (await api.post(`/api/v1/locations/${loc}/things`, { name: "Yellow drill", serial: "D-100", colour: "yellow" })).body as { id: string };

    await goTo(page, "Inbox");
    const card = page.getByRole("article", { name: "Possible duplicate: Yellow drill" });
    await card.getByText("Same serial number").waitFor();
    await card.getByRole("link", { name: "Drill", exact: true }).waitFor();
    await screenshot(page, "inbox-duplicate-phone");

    // Arabic on a 360 px phone: the notifications block and the card read right to left, nothing spills sideways.
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    await page.setViewportSize({ width: 360, height: 780 });
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.getByRole("group", { name: "الإشعارات" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await fits()).toBeLessThanOrEqual(0);
    await page.goto(`/l/${loc}/inbox`);
    const arabic = page.getByRole("article", { name: "تكرار محتمل: Yellow drill" });
    await arabic.getByText("الرقم التسلسلي نفسه").waitFor();
    await arabic.getByRole("button", { name: "ادمجه في Drill" }).waitFor();
    expect(await fits()).toBeLessThanOrEqual(0);
    await screenshot(page, "inbox-duplicate-arabic-360");
    await page.goto("/settings");
    await page.getByRole("radio", { name: "English" }).check();
    await goTo(page, "Inbox");

    await context.setOffline(true);
    await card.getByRole("button", { name: "Merge into Drill" }).click();
    await card.waitFor({ state: "detached" });
    await context.setOffline(false);
    await synced(page);

    expect((await api.get(`/api/v1/things/${second.id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/things/${first.id}`)).body).toMatchObject({ name: "Drill", colour: "yellow" });
  });
});
