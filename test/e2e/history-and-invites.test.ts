/**
 * What a newcomer meets after the first steps: a thing's history says what changed (field labels
 * from the registry, old and new values, never a secret's value), in English and Arabic, with Undo
 * only for whom may use it; screens that need the server say so offline and load by themselves
 * once back; the invite page says which location, who invites and as what role, and the link can
 * be copied.
 */
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import { freshEmail, goTo, locationIdOf, PASSWORD, signUp, type E2e } from "./support/app.js";
import { screenshot } from "./support/browser.js";

const NEEDS_CONNECTION = "This needs a connection. It will load by itself when you are back online.";

describe("history, online-only screens and invitations", () => {
  /** An API client signed in as someone who signed up in the app. */
  async function apiAs(e2e: E2e, email: string) {
    const c = e2e.svc.client();
    expect((await c.post("/api/v1/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    return c;
  }

  const historyLine = (page: Page, field: string) =>
    page
      .getByRole("region", { name: /History|السجل/ })
      .locator(`[data-field="${field}"]`)
      .first();

  it("history shows each changed field with its label and old → new values, never a secret's, in English and Arabic; Undo only for its author", async ({
    e2e,
  }) => {
    const owner = await e2e.device({ viewport: { width: 1280, height: 800 } });
    const ownerEmail = freshEmail("hana");
    await signUp(owner.page, "Hana Owner", ownerEmail);
    const loc = await locationIdOf(owner.page);
    const api = await apiAs(e2e, ownerEmail);
    const type = await api.post(`/api/v1/locations/${loc}/types`, { name: "Power tool" });
    expect(type.status, JSON.stringify(type.body)).toBe(201);
    for (const field of [
      { key: "voltage", label: "Voltage", kind: "number", unit: "V" },
      { key: "pin", label: "PIN", kind: "text", secret: true },
    ])
      expect((await api.post(`/api/v1/types/${type.body.id as string}/fields`, field)).status).toBe(201);
    const made = await api.post(`/api/v1/locations/${loc}/things`, { name: "Cordless drill", typeId: type.body.id, fields: { voltage: 18, pin: "1234" } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const thingId = made.body.id as string;
    const changed = await api.patch(`/api/v1/things/${thingId}`, {
      rowVersion: made.body.rowVersion,
      name: "Cordless drill XL",
      fields: { voltage: 20, pin: "9999" },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    // A change of a secret field cannot be undone (its old value is kept nowhere): one more, plain.
    const coloured = await api.patch(`/api/v1/things/${thingId}`, { rowVersion: changed.body.rowVersion, colour: "yellow" });
    expect(coloured.status, JSON.stringify(coloured.body)).toBe(200);

    // A member, invited through the app's link.
    const invite = await api.post(`/api/v1/locations/${loc}/invites`, { role: "member" });
    const member = await e2e.device();
    const memberEmail = freshEmail("milo");
    await signUp(member.page, "Milo Member", memberEmail, `/invite#token=${encodeURIComponent(invite.body.token as string)}`);

    await owner.page.goto(`/l/${loc}/things/${thingId}`);
    await owner.page.getByRole("heading", { name: "Cordless drill XL" }).waitFor();
    await expect.poll(() => historyLine(owner.page, "name").textContent()).toBe("Name: Cordless drill → Cordless drill XL");
    await expect.poll(() => historyLine(owner.page, "fields.voltage").textContent()).toBe("Voltage: 18 V → 20 V");
    await expect.poll(() => historyLine(owner.page, "fields.pin").textContent()).toBe("PIN changed (the value is not shown)");
    const text = await owner.page.locator("main").textContent();
    expect(text).not.toContain("1234");
    expect(text).not.toContain("9999");
    await expect.poll(() => historyLine(owner.page, "colour").textContent()).toBe("Colour: yellow");
    // The owner made the plain change: Undo is offered for it alone.
    await owner.page.getByRole("button", { name: /^Undo: Changed Cordless drill/ }).waitFor();
    expect(await owner.page.getByRole("button", { name: /^Undo/ }).count()).toBe(1);
    await screenshot(owner.page, "history-diff-en");

    // Another member sees what changed but is offered no Undo of someone else's change...
    await member.page.goto(`/l/${loc}/things/${thingId}`);
    await member.page.getByRole("heading", { name: "Cordless drill XL" }).waitFor();
    await expect.poll(() => historyLine(member.page, "name").textContent()).toBe("Name: Cordless drill → Cordless drill XL");
    expect(await member.page.getByRole("button", { name: /^Undo/ }).count()).toBe(0);
    // ...and is offered it for their own change.
    const mine = await apiAs(e2e, memberEmail);
    const current = await mine.get(`/api/v1/things/${thingId}`);
    expect((await mine.patch(`/api/v1/things/${thingId}`, { rowVersion: current.body.rowVersion, quantity: "3" })).status).toBe(200);
    await expect.poll(() => historyLine(member.page, "quantity").textContent(), { timeout: 15_000 }).toMatch(/^Quantity: .+ → 3$/);
    await expect.poll(() => member.page.getByRole("button", { name: /^Undo/ }).count()).toBe(1);
    // The owner may undo both: their own change (its fields still hold what it wrote) and, as owner, the member's.
    await expect.poll(() => owner.page.getByRole("button", { name: /^Undo/ }).count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);

    // Arabic: the labels and the arrow read right to left.
    await goTo(owner.page, "Settings");
    await owner.page.getByRole("radio", { name: "العربية" }).check();
    await owner.page.goto(`/l/${loc}/things/${thingId}`);
    await expect.poll(() => historyLine(owner.page, "name").textContent()).toBe("الاسم: Cordless drill ← Cordless drill XL");
    await expect.poll(() => historyLine(owner.page, "fields.pin").textContent()).toBe("تغيّر PIN (القيمة غير معروضة)");
    await expect.poll(() => historyLine(owner.page, "fields.voltage").textContent()).toContain("Voltage: ");
    expect(await owner.page.locator("main").textContent()).not.toContain("9999");
    await owner.page.setViewportSize({ width: 360, height: 780 });
    expect(await owner.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(owner.page, "history-diff-ar-360");
  });

  it("online-only screens say they need a connection and load again by themselves once back", async ({ e2e }) => {
    const { context, page } = await e2e.device();
    await signUp(page, "Otto Offline", freshEmail("otto"));
    await goTo(page, "Members");
    await page.getByText("Otto Offline (you)").waitFor();

    await context.setOffline(true);
    await page.getByText(NEEDS_CONNECTION).waitFor();
    expect(await page.getByText("Failed to fetch").count()).toBe(0);
    await context.setOffline(false);
    await page.getByText("Otto Offline (you)").waitFor();
    expect(await page.getByText(NEEDS_CONNECTION).count()).toBe(0);

    // The browser says online but the server cannot be reached: the same, and back by itself.
    await goTo(page, "Things");
    await page.route("**/api/v1/locations/*/members?**", (route) => route.abort("internetdisconnected"));
    await goTo(page, "Members");
    await page.getByText(NEEDS_CONNECTION).waitFor();
    await page.unrouteAll();
    await page.getByText("Otto Offline (you)").waitFor({ timeout: 20_000 });
    expect(await page.getByText(NEEDS_CONNECTION).count()).toBe(0);

    // In Arabic, on the tokens screen.
    await page.goto("/settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto("/settings/tokens");
    await page.getByRole("heading", { name: "الرموز الشخصية" }).waitFor();
    await context.setOffline(true);
    await page.getByText("يحتاج هذا إلى اتصال. سيُحمَّل من تلقاء نفسه عند عودتك إلى الاتصال.").waitFor();
    await context.setOffline(false);
    await page.getByText("لا توجد رموز بعد.").waitFor();
    expect(await page.getByText("يحتاج هذا إلى اتصال").count()).toBe(0);
  });

  it("the invite page says which location, who invites and as what role; the link is copied with one button", async ({ e2e }) => {
    const owner = await e2e.device({ viewport: { width: 1280, height: 800 } });
    await owner.context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signUp(owner.page, "Iris Owner", freshEmail("iris"));
    const loc = await locationIdOf(owner.page);
    await goTo(owner.page, "Members");
    const guestEmail = freshEmail("gus");
    await owner.page.getByLabel("Email (optional)").fill(guestEmail);
    await owner.page.getByLabel("Role", { exact: true }).selectOption({ label: "Viewer" });
    await owner.page.getByRole("button", { name: "Create invitation" }).click();
    const link = await owner.page.getByRole("textbox", { name: "Invitation link (shown once)" }).inputValue();
    await owner.page.getByText(`The link was also mailed to ${guestEmail}.`).waitFor();
    await owner.page.getByRole("button", { name: "Copy", exact: true }).click();
    await owner.page.getByRole("button", { name: "Copied" }).waitFor();
    expect(await owner.page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    // In Arabic first: looking does not use the invitation up.
    const arabic = await e2e.device({ viewport: { width: 360, height: 780 } });
    await arabic.page.addInitScript(() => localStorage.setItem("lang", "ar"));
    await arabic.page.goto(link);
    await arabic.page.getByText("يدعوك Iris Owner إلى «Iris's home».").waitFor();
    await arabic.page.getByText("ستنضم بصفة: مشاهد: يرى المخزون ولا يغيّر شيئًا").waitFor();
    expect(await arabic.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await screenshot(arabic.page, "invite-ar-360");

    const guest = await e2e.device();
    await guest.page.goto(link);
    await guest.page.getByText("Iris Owner invites you to “Iris's home”.").waitFor();
    await guest.page.getByText("You would join as: Viewer: sees the inventory but changes nothing").waitFor();
    await guest.page.getByText("Sign up or sign in with the email address the invitation was sent to.").waitFor();
    expect(new URL(guest.page.url()).hash).toBe("");
    await screenshot(guest.page, "invite-en");
    await signUp(guest.page, "Gus Guest", guestEmail, link);
    await guest.page.goto(`/l/${loc}/members`);
    await guest.page.getByText("Gus Guest (you)").waitFor();

    // Used now: the page says so, and how to get a new one.
    const late = await e2e.device();
    await late.page.goto(link);
    await late.page.getByText(/This invitation no longer works/).waitFor();
  });
});
