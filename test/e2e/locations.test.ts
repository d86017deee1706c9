/**
 * Locations from the app: the Locations screen is in the main navigation (behind "More" on a
 * phone, in the side bar on a desktop), and a second location is created there, in English and
 * Arabic; offline, creating one says it needs a connection.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { freshEmail, goTo, locationIdOf, signUp } from "./support/app.js";
import { screenshot } from "./support/browser.js";

describe("locations", () => {
  it("on a desktop: Locations from the side bar, a second location created and opened", async ({ e2e }) => {
    const { page } = await e2e.device({ viewport: { width: 1280, height: 800 } });
    await signUp(page, "Lou Locations", freshEmail("lou"));
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Places" }).waitFor();
    expect(await nav.getByRole("link", { name: "Locations" }).isVisible()).toBe(true);
    await nav.getByRole("link", { name: "Locations" }).click();
    await page.getByRole("heading", { name: "Choose a location" }).waitFor();
    await page.getByRole("link", { name: /^Lou's home/ }).waitFor();

    await page.getByLabel("Name of the new location").fill("  Cabin  ");
    await page.getByRole("button", { name: "Create location" }).click();
    await page.getByRole("status").filter({ hasText: "Location “Cabin” created." }).waitFor();
    await page.getByRole("link", { name: /^Cabin/ }).waitFor({ timeout: 15_000 });
    expect(await page.getByLabel("Name of the new location").inputValue()).toBe("");
    await page
      .getByRole("link", { name: /^Cabin/ })
      .getByText("Your role: Owner")
      .waitFor();
    await screenshot(page, "locations-new");

    await page.getByRole("link", { name: /^Cabin/ }).click();
    await page.getByRole("banner").getByText("Cabin", { exact: true }).waitFor();
    await goTo(page, "Places");
    await page.getByRole("link", { name: /^Unplaced/ }).waitFor();
  });

  it("on a phone in Arabic: Locations behind More, a location created; offline the form says it needs a connection", async ({ e2e }) => {
    const { context, page } = await e2e.device({ viewport: { width: 360, height: 740 } });
    await signUp(page, "Lina", freshEmail("lina"));
    // Settings keeps the location's tabs once the app has gone into the location.
    await locationIdOf(page);
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    const nav = page.getByRole("navigation", { name: "القائمة الرئيسية" });
    // Not in the bar itself: behind "More".
    expect(await nav.getByRole("link", { name: "المواقع" }).isVisible()).toBe(false);
    await nav.getByRole("button", { name: "المزيد" }).click();
    await nav.getByRole("link", { name: "المواقع" }).click();
    await page.getByRole("heading", { name: "اختر موقعًا" }).waitFor();

    await page.getByLabel("اسم الموقع الجديد").fill("الكوخ");
    await page.getByRole("button", { name: "أنشئ الموقع" }).click();
    await page.getByRole("status").filter({ hasText: "أُنشئ الموقع «الكوخ»." }).waitFor();
    await page.getByRole("link", { name: /^الكوخ/ }).waitFor({ timeout: 15_000 });
    await screenshot(page, "locations-new-ar-360");

    await context.setOffline(true);
    await page.getByText("إنشاء موقع يحتاج إلى اتصال.").waitFor();
    await page.getByLabel("اسم الموقع الجديد").fill("مكان آخر");
    expect(await page.getByRole("button", { name: "أنشئ الموقع" }).isDisabled()).toBe(true);
    await context.setOffline(false);
    await expect.poll(() => page.getByRole("button", { name: "أنشئ الموقع" }).isEnabled()).toBe(true);
  });
});
