/**
 * Receipts in the app (issue "inbox-ai"): a receipt photographed offline from Capture reaches the
 * server when the device reconnects, is read through a provider stand-in (OpenAI's wire format),
 * and is reviewed line by line in the inbox: one line becomes a thing, one is skipped; its "$" asks
 * which dollars. The cards fit a 360 px phone in Arabic.
 */
import { describe, expect } from "vitest";
import { aiE2eTest as it } from "./support/fixtures.js";
import { goTo, serviceWorkerReady, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const RECEIPT = {
  vendor: "Corner Hardware",
  date: "2026-11-20",
  currency: "$",
  total: "14.00",
  tax: null,
  lines: [
    { description: "Hammer", quantity: 1, unitPrice: "12.00", lineTotal: "12.00" },
    { description: "Bag", quantity: 1, unitPrice: "2.00", lineTotal: "2.00" },
  ],
};

describe("a receipt", () => {
  it("captured offline, read after reconnecting, its lines reviewed in the inbox and its currency picked", async ({ standin, newPerson }) => {
    const { context, page, locationId: loc, client } = await newPerson("Remy Receipts", "remy", { viewport: { width: 360, height: 780 } });
    await serviceWorkerReady(page);
    standin.next({ do: "ok", object: RECEIPT });

    await context.setOffline(true);
    await goTo(page, "Capture");
    await page.getByRole("radio", { name: "A receipt" }).check();
    await page.getByLabel("Receipt pages (up to 10)").setInputFiles({ name: "receipt.png", mimeType: "image/png", buffer: PNG });
    await page.getByRole("button", { name: "Save receipt" }).click();
    await page.getByText("Receipt saved (1 page)").waitFor();
    await context.setOffline(false);
    await synced(page);

    await goTo(page, "Inbox");
    const card = page.getByRole("article", { name: "Receipt: Corner Hardware" });
    await card.waitFor({ timeout: 30_000 });
    await card.getByText("Hammer").waitFor();
    const currency = page.getByRole("article", { name: "Which currency?: $" });
    await currency.waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "inbox-receipt-phone");

    await currency.getByLabel("Currency").selectOption("CAD");
    await currency.getByRole("button", { name: "Use CAD" }).click();
    await currency.waitFor({ state: "detached" });
    await card.getByLabel("What to do with “Bag”").selectOption("skip");
    await card.getByRole("button", { name: "Accept receipt: Corner Hardware" }).click();
    await card.waitFor({ state: "detached" });
    await synced(page);

    const api = await client();
    const names = ((await api.get(`/api/v1/locations/${loc}/things`)).body.items as { name: string }[]).map((t) => t.name);
    expect(names).toContain("Hammer");
    expect(names).not.toContain("Bag");

    // Arabic: the capture choice and the inbox read right to left and fit.
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${loc}/capture`);
    await page
      .getByRole("radio", { name: "إيصال" })
      .or(page.getByRole("radio", { name: /إيصال/ }))
      .first()
      .check();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "capture-receipt-arabic-360");
  });
});
