/**
 * AI extraction in the app (issue "inbox-ai"): a photo captured with no signal reaches the server
 * when the device reconnects; the pipeline reads it through a provider stand-in speaking OpenAI's
 * wire format; the reviewer sees the suggestion beside their own name in the inbox, takes it, and
 * the thing's history shows the value and what the call cost. The same screens in Arabic fit a
 * 360 px phone.
 */
import { describe, expect } from "vitest";
import { aiE2eTest as it } from "./support/fixtures.js";
import { goTo, serviceWorkerReady, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const none = { value: null, confidence: 0, photo: null };
const READ = {
  name: { value: "Cordless drill", confidence: 0.92, photo: 1 },
  description: none,
  model: { value: "GSR 12V-15", confidence: 0.81, photo: 1 },
  serial: none,
  colour: none,
  quantity: none,
  custom: {},
};

describe("photos read by AI", () => {
  it("a photo captured offline is read after reconnecting; the reviewer takes a suggestion and the history shows its cost", async ({ standin, newPerson }) => {
    const { context, page, locationId: loc, client } = await newPerson("Rita Reviewer", "rita");
    await serviceWorkerReady(page);
    standin.next({ do: "ok", object: READ });

    await context.setOffline(true);
    await goTo(page, "Capture");
    await page.getByLabel("Photo").setInputFiles({ name: "drill.png", mimeType: "image/png", buffer: PNG });
    await page.getByLabel("Name", { exact: true }).fill("Drill");
    await page.getByRole("button", { name: "Save thing" }).click();
    await page.getByText("Saved “Drill”").waitFor();
    expect(standin.received).toHaveLength(0);

    await context.setOffline(false);
    await synced(page);
    await goTo(page, "Inbox");
    // The model's name waits beside the person's own; the empty model field was filled in.
    const row = page.locator('[data-field="name"]');
    await row.getByRole("button", { name: "Use “Cordless drill” for Name" }).waitFor({ timeout: 30_000 });
    await page.getByRole("status").filter({ hasText: "The photos were read." }).first().waitFor();
    await screenshot(page, "inbox-suggestion-phone");
    await row.getByRole("button", { name: "Use “Cordless drill” for Name" }).click();
    await expect.poll(() => row.getByRole("button", { name: /Use “Cordless drill”/ }).count()).toBe(0);
    await synced(page);

    const api = await client();
    const things = (await api.get(`/api/v1/locations/${loc}/things`)).body.items as { id: string; name: string }[];
    const drill = things.find((t) => t.name === "Cordless drill")!;
    expect(drill).toBeTruthy();
    expect((await api.get(`/api/v1/things/${drill.id}`)).body).toMatchObject({ name: "Cordless drill", model: "GSR 12V-15" });

    // The thing's history: the value taken and what reading the photo cost.
    await page.goto(`/l/${loc}/things/${drill.id}`);
    await page.getByRole("heading", { name: "Cordless drill" }).waitFor();
    const costLine = page.locator("[data-ai-call]").filter({ hasText: "$0.000228" });
    await expect.poll(() => costLine.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await page.getByText("Used the suggested name “Cordless drill”").first().waitFor();
    await screenshot(page, "thing-ai-history-phone");

    // Arabic on a 360 px phone: the thing page with its readings fits and reads right to left.
    await page.setViewportSize({ width: 360, height: 780 });
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${loc}/things/${drill.id}`);
    await page.getByRole("heading", { name: "Cordless drill" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(page, "thing-ai-arabic-360");
  });
});
