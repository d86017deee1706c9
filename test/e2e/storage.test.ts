/**
 * Persistent storage on a 360 px phone: after the first sync the app has asked the browser once
 * to keep its data (client/db/persist.ts), and Settings says what the browser answered, in English
 * and in Arabic, with how much the app holds and may hold. Headless Chromium may grant or refuse,
 * so the screen is held to what `navigator.storage` answers in the same page. In a browser without
 * persist(), Settings says it cannot tell and what to do instead. The screen fits the phone.
 */
import { describe, expect } from "vitest";
import type { Page } from "playwright-core";
import { e2eTest as it } from "./support/fixtures.js";
import { goTo } from "./support/app.js";
import { screenshot } from "./support/browser.js";
import { MESSAGES } from "../../client/ui/i18n/i18n.js";
import { ASKED_KEY, bytesText } from "../../client/db/persist.js";

const PHONE = { width: 360, height: 780 };
const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** What the page's own navigator.storage says now. */
const browserSays = (page: Page) =>
  page.evaluate(async () => ({
    persisted: await navigator.storage.persisted(),
    quota: (await navigator.storage.estimate()).quota ?? null,
  }));

describe("storage on this device", () => {
  it("the app asks once after the first sync; Settings says what the browser answered, in English and Arabic", async ({ newPerson }) => {
    const { page } = await newPerson("Salma", "storage", { viewport: PHONE });
    // Asked once the first round of shapes is in (unless the browser had granted it already):
    // remembered, so a reload does not ask again.
    await expect
      .poll(() => page.evaluate(async (key) => localStorage.getItem(key) !== null || (await navigator.storage.persisted()), ASKED_KEY), { timeout: 30_000 })
      .toBe(true);
    const asked = await page.evaluate((key) => localStorage.getItem(key), ASKED_KEY);

    await goTo(page, "Settings");
    // Found by its class: its name changes with the language.
    const part = page.locator("fieldset.storage");
    await page.getByRole("group", { name: "Storage on this device" }).waitFor();
    const answer = await browserSays(page);
    const state = answer.persisted ? "granted" : "denied";
    const status = part.getByRole("status");
    await expect.poll(() => status.getAttribute("data-persist")).toBe(state);
    expect(await status.textContent()).toBe(MESSAGES.en[`settings.storage.${state}`]);
    // Where the browser may clear the data, the screen says what to do, and offers to ask again.
    expect(await part.getByText(MESSAGES.en["settings.storage.deniedAdvice"]).count()).toBe(state === "denied" ? 1 : 0);
    expect(await part.getByRole("button", { name: "Ask the browser again" }).count()).toBe(state === "denied" ? 1 : 0);
    // The sizes are the browser's estimate, in the reader's units.
    const usage = part.locator("[data-usage]");
    const quota = Number(await usage.getAttribute("data-quota"));
    expect(Math.abs(quota - answer.quota!)).toBeLessThanOrEqual(answer.quota! / 100);
    expect(Number(await usage.getAttribute("data-usage"))).toBeGreaterThan(0);
    expect(await usage.textContent()).toContain(`the browser lets it hold about ${bytesText(quota, "en")}.`);
    expect(await fits(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "settings-storage-360");

    await page.getByRole("radio", { name: "العربية" }).check();
    await page.getByRole("group", { name: "التخزين على هذا الجهاز" }).waitFor();
    expect(await status.textContent()).toBe(MESSAGES.ar[`settings.storage.${state}`]);
    expect(await usage.textContent()).toContain(bytesText(quota, "ar-u-nu-arab"));
    expect(await usage.textContent()).toMatch(/[٠-٩]/);
    expect(await fits(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "settings-storage-360-arabic");

    // A reload does not ask again: the first asking is remembered.
    await page.reload();
    await status.waitFor();
    expect(await page.evaluate((key) => localStorage.getItem(key), ASKED_KEY)).toBe(asked);
    // Asking again from Settings: the screen follows the browser's new answer, whichever it is.
    if (state === "denied") {
      await part.getByRole("button", { name: MESSAGES.ar["settings.storage.askAgain"] }).click();
      await expect.poll(() => part.getAttribute("aria-busy")).toBe("false");
      expect(await status.getAttribute("data-persist")).toBe((await browserSays(page)).persisted ? "granted" : "denied");
    }
  });

  it("a browser without persist(): Settings says it cannot tell, and to keep syncing", async ({ newPerson }) => {
    const { page, context } = await newPerson("Samir", "nopersist", { viewport: PHONE });
    await context.addInitScript(() => {
      Object.defineProperty(StorageManager.prototype, "persist", { value: undefined, configurable: true });
    });
    await page.reload();
    await goTo(page, "Settings");
    const part = page.locator("fieldset.storage");
    const status = part.getByRole("status");
    await expect.poll(() => status.getAttribute("data-persist")).toBe("unsupported");
    expect(await status.textContent()).toBe(MESSAGES.en["settings.storage.unsupported"]);
    await part.getByText(MESSAGES.en["settings.storage.unsupportedAdvice"]).waitFor();
    expect(await part.getByRole("button").count()).toBe(0);
    expect(await fits(page)).toBeLessThanOrEqual(0);
  });
});
