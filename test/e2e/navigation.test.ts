/**
 * The main navigation on a phone: at 360 px the bar shows four tabs and "More", none cut off, in
 * English and Arabic; "More" opens the rest above the bar, and choosing one closes it. A desktop's
 * side bar shows every tab and no "More".
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import type { Page } from "playwright-core";
import { freshEmail, goTo, signUp } from "./support/app.js";
import { screenshot } from "./support/browser.js";

/** Every visible control of the bar lies wholly inside the screen's width. */
async function allInside(page: Page, nav: string): Promise<string[]> {
  const width = page.viewportSize()!.width;
  const controls = page.getByRole("navigation", { name: nav }).locator("a:visible, button:visible");
  const names: string[] = [];
  for (const c of await controls.all()) {
    const box = (await c.boundingBox())!;
    expect(box.x, await c.innerText()).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, await c.innerText()).toBeLessThanOrEqual(width + 0.5);
    names.push((await c.innerText()).trim());
  }
  return names;
}

describe("main navigation", () => {
  it("at 360 px: four tabs and More, nothing cut off, in English and Arabic; More opens the rest", async ({ e2e }) => {
    const { page } = await e2e.device({ viewport: { width: 360, height: 740 } });
    await signUp(page, "Navi Gator", freshEmail("nav"));
    const nav = page.getByRole("navigation", { name: "Main" });
    // The location's tabs (until the location is known the bar holds Locations, Sync and Settings).
    await nav.getByRole("button", { name: "More" }).waitFor();
    expect(await allInside(page, "Main")).toEqual(["Places", "Things", "Capture", "Inbox", "More"]);
    expect(await nav.getByRole("link", { name: "Settings" }).isVisible()).toBe(false);

    const more = nav.getByRole("button", { name: "More" });
    expect(await more.getAttribute("aria-expanded")).toBe("false");
    await more.click();
    expect(await more.getAttribute("aria-expanded")).toBe("true");
    for (const name of ["Members", "Sync", "Settings"]) await nav.getByRole("link", { name }).waitFor({ state: "visible" });
    await allInside(page, "Main");
    await screenshot(page, "nav-more-360");
    await nav.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("heading", { name: "Settings" }).waitFor();
    // Chosen: the rows close again.
    await nav.getByRole("link", { name: "Members" }).waitFor({ state: "hidden" });

    // Escape closes it too, from the keyboard.
    await more.focus();
    await page.keyboard.press("Enter");
    await nav.getByRole("link", { name: "Sync" }).waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await nav.getByRole("link", { name: "Sync" }).waitFor({ state: "hidden" });

    await page.getByRole("radio", { name: "العربية" }).check();
    await page.getByRole("navigation", { name: "القائمة الرئيسية" }).getByRole("button", { name: "المزيد" }).waitFor();
    expect(await allInside(page, "القائمة الرئيسية")).toEqual(["الأماكن", "الأغراض", "التقاط", "الوارد", "المزيد"]);
    await page.getByRole("navigation", { name: "القائمة الرئيسية" }).getByRole("button", { name: "المزيد" }).click();
    await page.getByRole("navigation", { name: "القائمة الرئيسية" }).getByRole("link", { name: "الإعدادات" }).waitFor({ state: "visible" });
    await allInside(page, "القائمة الرئيسية");
    await screenshot(page, "nav-more-ar-360");
  });

  it("on a desktop the side bar shows every tab and no More", async ({ e2e }) => {
    const { page } = await e2e.device({ viewport: { width: 1280, height: 800 } });
    await signUp(page, "Desk Top", freshEmail("desk"));
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Places" }).waitFor();
    for (const name of ["Places", "Things", "Capture", "Inbox", "Members", "Sync", "Settings"])
      expect(await nav.getByRole("link", { name }).isVisible(), name).toBe(true);
    expect(await nav.getByRole("button", { name: "More" }).isVisible()).toBe(false);
    await goTo(page, "Members");
    await page.getByRole("heading", { name: "Members" }).waitFor();
  });
});
