/**
 * Activity on a 360 px phone: a person makes personal tokens and a share link; Settings → Security
 * lists the tokens in words, newest first, with More for the older ones, and the location's settings
 * list the share link; offline the list says it needs a connection; in Arabic the lines read right
 * to left and nothing is wider than the phone.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import type { Page } from "playwright-core";
import { goTo } from "./support/app.js";
import { screenshot } from "./support/browser.js";

const PHONE = { width: 360, height: 780 };
const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("activity", () => {
  it("tokens and a share link read as lines in English and Arabic, More brings older ones, offline says so, 360 px fits", async ({ newPerson }) => {
    const { context, page, locationId: loc, client } = await newPerson("Ayla Audit", "ayla", { viewport: PHONE });
    await page.getByRole("heading", { name: "Things" }).waitFor();
    const api = await client();

    // 21 tokens: one more than the first page holds. The first has a long name, which must wrap.
    const long = `Nightly-backup-script-for-the-garage-${"x".repeat(40)}`;
    for (const name of [long, ...Array.from({ length: 19 }, (_, i) => `script ${i + 1}`), "CI"])
      expect((await api.post("/api/v1/tokens", { name, scope: "read", locationIds: [loc] })).status).toBe(201);
    const thing = await api.post(`/api/v1/locations/${loc}/things`, { name: "Drill" });
    expect(thing.status).toBe(201);
    expect((await api.post("/api/v1/share-links", { scope: "thing", targetId: thing.body.id })).status).toBe(201);

    await page.goto("/settings/security");
    const activity = page.getByRole("region", { name: "Activity" });
    await activity.getByText("You made the personal token “CI”").waitFor();
    const lines = activity.locator("li[data-audit-action]");
    await expect.poll(() => lines.count()).toBe(20);
    // Newest first, each with its date in words.
    await expect(lines.first().locator("time").innerText()).resolves.toMatch(/\d{4}/);
    await expect(activity.getByText(long, { exact: false }).count()).resolves.toBe(0);
    await activity.getByRole("button", { name: "More" }).click();
    await activity.getByText(`You made the personal token “${long}”`).waitFor();
    await expect.poll(() => lines.count()).toBe(21);
    await expect(activity.getByRole("button", { name: "More" }).count()).resolves.toBe(0);
    expect(await fits(page)).toBeLessThanOrEqual(0);

    // The share link is the location's business: its settings list it.
    await page.goto(`/l/${loc}/settings`);
    const here = page.getByRole("region", { name: "Activity" });
    await here.getByText(/^You made a share link of Drill in /).waitFor();

    // Offline, the account's activity says it needs a connection, and loads again when back.
    await page.goto("/settings/security");
    await activity.getByText("You made the personal token “CI”").waitFor();
    await context.setOffline(true);
    await page.getByText("This needs a connection.", { exact: false }).first().waitFor();
    await context.setOffline(false);
    await activity.getByText("You made the personal token “CI”").waitFor();

    // Arabic: right to left, the same lines in Arabic, nothing wider than the phone.
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto("/settings/security");
    const nashat = page.getByRole("region", { name: "النشاط" });
    await nashat.getByText("أنشأتَ الرمز الشخصي «CI»").waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    await nashat.getByRole("button", { name: "المزيد" }).click();
    await nashat.getByText(long, { exact: false }).waitFor();
    expect(await fits(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "activity-arabic-phone");
    await page.goto(`/l/${loc}/settings`);
    await page
      .getByRole("region", { name: "النشاط" })
      .getByText(/^أنشأتَ رابط مشاركة لـDrill في /)
      .waitFor();
    expect(await fits(page)).toBeLessThanOrEqual(0);
  });
});
