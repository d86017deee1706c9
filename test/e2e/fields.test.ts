/**
 * Custom fields end to end: an owner defines a type with three fields (text, date, money) in the
 * editor, captures a thing of it with values while offline, syncs, and a second device of the same
 * person sees the values; the thing is saved as a template and a new capture starts from it with
 * the values filled in. The editor, Capture and the thing page fit a 360 px wide phone.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import type { Page } from "playwright-core";
import { freshEmail, goTo, locationIdOf, PASSWORD, serviceWorkerReady, signIn, signUp, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

async function addField(page: Page, label: string, kind: string) {
  const form = page.getByRole("form", { name: "Add a field" });
  await form.getByLabel("Label", { exact: true }).fill(label);
  await form.getByLabel("Kind", { exact: true }).selectOption({ label: kind });
  await form.getByRole("button", { name: "Add field" }).click();
  await page.getByRole("listitem", { name: label }).waitFor();
}

/** The text of the thing page's fact named `label`. */
const fact = (page: Page, label: string) =>
  page
    .locator(".facts .fact")
    .filter({ has: page.locator("dt", { hasText: label }) })
    .locator("dd");

/** No control sticks out sideways, and each named one is on screen horizontally. */
async function fitsWidth(page: Page, names: string[]) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const width = page.viewportSize()!.width;
  for (const name of names) {
    const box = await page.getByRole("button", { name, exact: true }).first().boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x, name).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(width);
  }
}

describe("custom fields", () => {
  it("defines a type with three fields, captures a thing with values offline, sees them on a second device, and starts a new thing from it as a template", async ({
    e2e,
  }) => {
    const a = await e2e.device();
    const email = freshEmail("fiona");
    await signUp(a.page, "Fiona Fields", email);
    const locationId = await locationIdOf(a.page);
    await a.page.getByRole("heading", { name: "Things" }).waitFor();

    // The editor, from the Things screen.
    await a.page.getByRole("link", { name: "Types and fields" }).click();
    await a.page.getByRole("heading", { name: "Types and fields" }).waitFor();
    await a.page.getByLabel("Type name").fill("Power tool");
    await a.page.getByRole("button", { name: "Create type" }).click();
    const panel = a.page.getByRole("region", { name: "Power tool" });
    await panel.getByRole("heading", { name: /Power tool/ }).waitFor();
    await addField(a.page, "Serial number", "Text");
    await addField(a.page, "Bought on", "Date");
    await addField(a.page, "Price", "Money");
    // The key was made from the label; each field says where it comes from.
    const serial = a.page.getByRole("listitem", { name: "Serial number" });
    await serial.getByText("serial_number").waitFor();
    await serial.getByText("Own field").waitFor();
    await screenshot(a.page, "fields-editor");
    await synced(a.page);
    await serviceWorkerReady(a.page);

    // Offline: capture a power tool with its three values.
    await a.context.setOffline(true);
    await goTo(a.page, "Capture");
    await a.page.getByLabel("Name", { exact: true }).fill("Drill");
    await a.page.getByLabel("Type", { exact: true }).selectOption({ label: "Power tool" });
    await a.page.getByLabel("Serial number").fill("SN-123");
    await a.page.getByLabel("Bought on").fill("2026-11-01");
    await a.page.getByLabel("Price: amount").fill("129.90");
    await a.page.getByLabel("Price: currency").fill("eur");
    await a.page.getByRole("button", { name: "Save thing" }).click();
    await a.page.getByText("Saved “Drill”").waitFor();
    // The thing page shows the values at once, before any sync.
    await goTo(a.page, "Things");
    await a.page.getByRole("link", { name: /Drill/ }).click();
    await a.page.getByRole("heading", { name: "Drill" }).waitFor();
    await expect.poll(() => fact(a.page, "Serial number").textContent()).toBe("SN-123");
    await expect.poll(() => fact(a.page, "Price").textContent()).toBe("€129.90");

    const owner = e2e.svc.client();
    expect((await owner.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    expect((await owner.get(`/api/v1/locations/${locationId}/things`)).body.items).toEqual([]);

    await a.context.setOffline(false);
    await synced(a.page);
    const items = (await owner.get(`/api/v1/locations/${locationId}/things`)).body.items as { id: string; name: string }[];
    const drill = items.find((t) => t.name === "Drill")!;
    expect(drill).toBeDefined();
    const detail = await owner.get(`/api/v1/things/${drill.id}`);
    expect(detail.body.fields).toEqual({ serial_number: "SN-123", bought_on: "2026-11-01", price: { amount: "129.9", currency: "EUR" } });

    // A second device of the same person sees the values.
    const b = await e2e.device();
    await signIn(b.page, email);
    await b.page.getByRole("navigation", { name: "Main" }).waitFor();
    await b.page.goto(`/l/${locationId}/things/${drill.id}`);
    await b.page.getByRole("heading", { name: "Drill" }).waitFor({ timeout: 30_000 });
    await expect.poll(() => fact(b.page, "Serial number").textContent(), { timeout: 30_000 }).toBe("SN-123");
    expect(await fact(b.page, "Bought on").textContent()).toBe("Nov 1, 2026");
    expect(await fact(b.page, "Price").textContent()).toBe("€129.90");
    await screenshot(b.page, "fields-thing-second-device");

    // Save it as a template (offered in this location), then start a new thing from it.
    await b.page.getByText("Save as template").click();
    const save = b.page.getByRole("form", { name: "Save as template" });
    await save.getByLabel("Template name").fill("Drill kit");
    await save.getByRole("button", { name: "Save template" }).click();
    await b.page.getByText("Saved the template “Drill kit”.").waitFor();
    await synced(b.page);
    await expect
      .poll(async () => (await owner.get(`/api/v1/templates?locationId=${locationId}`)).body.items.map((t: { name: string }) => t.name))
      .toEqual(["Drill kit"]);

    // Registries are paused between catch-ups (every minute, after a push): "Sync now" asks at once.
    await goTo(a.page, "Sync");
    await a.page.getByRole("button", { name: "Sync now" }).click();
    await goTo(a.page, "Capture");
    const startFrom = a.page.getByLabel("Start from template");
    await startFrom.waitFor({ timeout: 30_000 });
    await startFrom.selectOption({ label: "Drill kit" });
    expect(await a.page.getByLabel("Type", { exact: true }).locator("option:checked").textContent()).toBe("Power tool");
    expect(await a.page.getByLabel("Serial number").inputValue()).toBe("SN-123");
    expect(await a.page.getByLabel("Bought on").inputValue()).toBe("2026-11-01");
    expect(await a.page.getByLabel("Price: amount").inputValue()).toBe("129.9");
    expect(await a.page.getByLabel("Price: currency").inputValue()).toBe("EUR");
    await a.page.getByLabel("Name", { exact: true }).fill("Second drill");
    await a.page.getByLabel("Serial number").fill("SN-124");
    await a.page.getByRole("button", { name: "Save thing" }).click();
    await a.page.getByText("Saved “Second drill”").waitFor();
    await synced(a.page);
    const second = ((await owner.get(`/api/v1/locations/${locationId}/things`)).body.items as { id: string; name: string }[]).find(
      (t) => t.name === "Second drill",
    )!;
    const secondDetail = await owner.get(`/api/v1/things/${second.id}`);
    expect(secondDetail.body.fields).toEqual({ serial_number: "SN-124", bought_on: "2026-11-01", price: { amount: "129.9", currency: "EUR" } });
    expect(secondDetail.body.type.id).toBe(detail.body.type.id);

    // A phone 360 px wide: the editor, Capture and the thing page fit, in English and in Arabic.
    const narrow = await e2e.device({ viewport: { width: 360, height: 740 } });
    await signIn(narrow.page, email);
    await narrow.page.getByRole("navigation", { name: "Main" }).waitFor();
    await narrow.page.goto(`/l/${locationId}/types`);
    await narrow.page.getByRole("button", { name: /Power tool/ }).click();
    await narrow.page.getByRole("listitem", { name: "Price" }).waitFor({ timeout: 30_000 });
    await fitsWidth(narrow.page, ["Create type", "Add field", "Rename", "Archive", "Edit field Serial number", "Archive field Price"]);
    await narrow.page.getByRole("button", { name: "Edit field Serial number" }).click();
    await fitsWidth(narrow.page, ["Save field"]);
    await narrow.page.goto(`/l/${locationId}/capture`);
    await narrow.page.getByLabel("Type", { exact: true }).selectOption({ label: "Power tool" });
    await narrow.page.getByLabel("Price: currency").waitFor();
    await fitsWidth(narrow.page, ["Save thing"]);
    await narrow.page.goto(`/l/${locationId}/things/${drill.id}`);
    await narrow.page.getByRole("heading", { name: "Drill" }).waitFor({ timeout: 30_000 });
    await fitsWidth(narrow.page, ["Save changes", "Add tag"]);
    await narrow.page.evaluate(() => localStorage.setItem("lang", "ar"));
    await narrow.page.goto(`/l/${locationId}/types`);
    await narrow.page.getByRole("heading", { name: "الأنواع والحقول" }).waitFor();
    expect(await narrow.page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    await narrow.page.getByRole("button", { name: /Power tool/ }).click();
    await fitsWidth(narrow.page, ["إنشاء النوع", "أضف الحقل"]);
    await screenshot(narrow.page, "fields-editor-arabic-360");
  });
  it("keeps a secret value hidden until revealed, asks for the password again first, and says reveal needs a connection", async ({ newPerson }) => {
    const { context, page, locationId } = await newPerson("Sam Secret", "sam");
    await page.goto(`/l/${locationId}/types`);
    await page.getByLabel("Type name").fill("Safe");
    await page.getByRole("button", { name: "Create type" }).click();
    await page.getByRole("region", { name: "Safe" }).waitFor();
    const form = page.getByRole("form", { name: "Add a field" });
    await form.getByLabel("Label", { exact: true }).fill("PIN");
    await form.getByLabel("Secret").check();
    await form.getByRole("button", { name: "Add field" }).click();
    await page.getByRole("listitem", { name: "PIN" }).getByText("Secret").waitFor();
    await synced(page);

    await goTo(page, "Capture");
    await page.getByLabel("Name", { exact: true }).fill("Wall safe");
    await page.getByLabel("Type", { exact: true }).selectOption({ label: "Safe" });
    await page.getByLabel("PIN").fill("4711");
    await page.getByRole("button", { name: "Save thing" }).click();
    await page.getByText("Saved “Wall safe”").waitFor();
    await synced(page);
    await goTo(page, "Things");
    await page.getByRole("link", { name: /Wall safe/ }).click();
    await page.getByRole("heading", { name: "Wall safe" }).waitFor();
    await expect.poll(() => fact(page, "PIN").textContent()).toContain("Hidden");
    expect(await page.getByText("4711").count()).toBe(0);

    await page.getByRole("button", { name: "Reveal PIN" }).click();
    await page.getByLabel("Your password, to reveal secrets").fill(PASSWORD);
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => fact(page, "PIN").textContent()).toContain("4711");
    await page.getByRole("button", { name: "Hide" }).click();
    expect(await page.getByText("4711").count()).toBe(0);

    await context.setOffline(true);
    await page.getByRole("button", { name: "Reveal PIN" }).click();
    await page.getByText("Revealing a secret needs a connection.").waitFor();
    await context.setOffline(false);
  });
});
