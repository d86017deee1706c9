/**
 * Webhooks in the app: an owner opens them from the Members screen, adds one (URL and events),
 * sees its signing secret once (gone after Done and after a reload; the server's list never holds
 * it), switches it off, and the Arabic screen fits a 360 px phone.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { goTo } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("webhooks screen", () => {
  it("an admin creates a webhook and sees its secret once; the Arabic screen fits 360 px", async ({ newPerson }) => {
    const { page, locationId, client } = await newPerson("Wendy Hook", "wendy");
    await page.getByRole("heading", { name: "Things" }).waitFor();
    const owner = await client();

    await page.goto(`/l/${locationId}/members`);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await page.getByText("No webhooks yet.").waitFor();
    await page.getByLabel("URL (https)").fill("https://hooks.example/inventory");
    await page.getByRole("checkbox", { name: "Thing moved" }).check();
    await page.getByRole("button", { name: "Create webhook" }).click();
    const secretBox = page.getByRole("textbox", { name: "Signing secret" });
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByText("https://hooks.example/inventory").waitFor();

    const list = await owner.get(`/api/v1/locations/${locationId}/webhooks`);
    expect(list.body.items).toHaveLength(1);
    expect(list.body.items[0]).toMatchObject({ url: "https://hooks.example/inventory", events: ["thing.created", "thing.moved"], active: true });
    expect(JSON.stringify(list.body)).not.toContain(secret.slice(6));

    // Shown once: Done hides it, and a reload does not bring it back.
    await page.getByRole("button", { name: "Done" }).click();
    await expect(secretBox.count()).resolves.toBe(0);
    await page.reload();
    await page.getByText("https://hooks.example/inventory").waitFor();
    await expect(page.getByRole("textbox", { name: "Signing secret" }).count()).resolves.toBe(0);
    await expect(page.content()).resolves.not.toContain(secret.slice(6));

    // Switched off from the list.
    await page.getByRole("checkbox", { name: "Active" }).uncheck();
    await expect.poll(async () => (await owner.get(`/api/v1/locations/${locationId}/webhooks`)).body.items[0].active).toBe(false);

    // Arabic at 360 px: right to left, nothing spills sideways (the long URL wraps).
    await owner.post(`/api/v1/locations/${locationId}/webhooks`, { url: `https://hooks.example/${"very-long-path-".repeat(12)}`, events: ["box.unpacked"] });
    await page.setViewportSize({ width: 360, height: 780 });
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${locationId}/webhooks`);
    await page.getByRole("heading", { name: "خطافات الويب" }).waitFor();
    await page.getByText("very-long-path-", { exact: false }).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "webhooks-arabic-phone");
  });
});
