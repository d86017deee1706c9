/**
 * Share links in the browser: a link made from a thing's page opens in a fresh browser with no
 * account (the thing's name shows, read-only); once revoked, the same page says the link is not
 * available. The Arabic preview and the Share part fit a 360 px phone.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { screenshot } from "./support/browser.js";

const noSidewaysSpill = "document.documentElement.scrollWidth - document.documentElement.clientWidth";

describe("share links", () => {
  it("makes a link on a thing's page, shows it signed out in a fresh browser, and not after it is revoked", async ({ e2e, newPerson }) => {
    const { page, locationId, client } = await newPerson("Sam Share", "sam");
    await page.getByRole("heading", { name: "Things" }).waitFor();
    const owner = await client();
    const box = await owner.post(`/api/v1/locations/${locationId}/things`, { name: "Camping box", isContainer: true, description: "Tent and stove" });
    const stove = await owner.post(`/api/v1/locations/${locationId}/things`, { name: "Gas stove", containerId: box.body.id });
    expect([box.status, stove.status]).toEqual([201, 201]);

    await page.goto(`/l/${locationId}/things/${box.body.id}`);
    await page.getByRole("heading", { name: "Camping box" }).waitFor();
    await page.getByRole("button", { name: "Share", exact: true }).click();
    await page.getByLabel("Title (optional)").fill("For the neighbours");
    await page.getByRole("button", { name: "Make a link" }).click();
    const urlBox = page.getByRole("textbox", { name: "Share links" });
    await urlBox.waitFor();
    const url = await urlBox.inputValue();
    expect(url).toMatch(new RegExp(`^${e2e.svc.url}/s/[0-9a-f-]{36}#[0-9A-Za-z]{43}$`));
    await page.getByRole("img", { name: "QR code of the link" }).waitFor();
    await page.getByRole("button", { name: "Copy" }).waitFor();
    await page.getByText("For the neighbours").waitFor();
    await screenshot(page, "share-link-made");

    // Someone with no account, in a browser that never signed in.
    const stranger = await e2e.device();
    await stranger.page.goto(url);
    await stranger.page.getByRole("heading", { name: "Camping box" }).waitFor();
    await stranger.page.getByText("Tent and stove").waitFor();
    await stranger.page.getByText("Gas stove").waitFor();
    expect(new URL(stranger.page.url()).pathname).toMatch(/^\/s\//);
    await screenshot(stranger.page, "share-link-preview");

    await page.getByRole("button", { name: "Revoke" }).click();
    await page.getByText("The link is revoked.").waitFor();
    await stranger.page.reload();
    await stranger.page.getByText("This link is not available").waitFor();
    await expect(stranger.page.getByRole("heading", { name: "Camping box" }).count()).resolves.toBe(0);

    // Arabic at 360 px: the preview renders right to left and nothing spills sideways.
    const again = await owner.post("/api/v1/share-links", { scope: "thing", targetId: box.body.id, title: "صندوق التخييم للجيران" });
    expect(again.status).toBe(201);
    const arabic = await e2e.device({ viewport: { width: 360, height: 780 } });
    await arabic.context.addInitScript(() => localStorage.setItem("lang", "ar"));
    await arabic.page.goto(again.body.url as string);
    await arabic.page.getByRole("heading", { name: "Camping box" }).waitFor();
    await arabic.page.getByText("عرض مشترك للقراءة فقط").first().waitFor();
    expect(await arabic.page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await arabic.page.evaluate(noSidewaysSpill)).toBeLessThanOrEqual(0);
    await screenshot(arabic.page, "share-link-preview-arabic-phone");

    // The Share part on the thing's page, in Arabic on a phone, with a link made.
    await page.setViewportSize({ width: 360, height: 780 });
    await page.evaluate(() => localStorage.setItem("lang", "ar"));
    await page.reload();
    await page.getByRole("heading", { name: "Camping box" }).waitFor();
    await page.getByRole("button", { name: "مشاركة", exact: true }).click();
    await page.getByRole("button", { name: "أنشئ رابطًا" }).click();
    await page.getByRole("img", { name: "رمز QR للرابط" }).waitFor();
    expect(await page.evaluate(noSidewaysSpill)).toBeLessThanOrEqual(0);
    await screenshot(page, "share-link-arabic-phone");
  });
});
