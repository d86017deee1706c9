/**
 * Account screens in Chromium: first-run setup on a fresh server (the printed setup URL, the
 * admin account, sign-up opened from the Admin screen), invitations revoked from Members, a managed
 * account created with its one-time code shown once and used to sign in (and reset), a hint
 * dismissed on one device staying away on another, a location deleted with its name typed and
 * restored from the trash.
 * Arabic at 360 px for the new screens.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import type { Page } from "playwright-core";
import { freshEmail, goTo, PASSWORD, signIn, signUp } from "./support/app.js";
import { screenshot } from "./support/browser.js";

it.override("e2eEnv", { SVC_SIGNUP_OPEN: "" });

const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("account screens", () => {
  it.beforeAll(async () => {
    // Sign-up closed, as on a default server: only setup can make the first account.
  });

  it("first-run setup: the setup URL makes the instance admin, who opens sign-up", async ({ e2e }) => {
    const { page } = await e2e.device();
    const url = e2e.svc.services.setup.url(e2e.svc.config.publicUrl);
    await page.goto(url.replace(e2e.svc.config.publicUrl.origin, ""));
    await page.getByRole("heading", { name: "Set up this instance" }).waitFor();
    await expect(page.getByLabel("Setup code").inputValue()).resolves.toBe(e2e.svc.services.setup.code);
    const email = freshEmail("ada");
    await page.getByLabel("Your name", { exact: true }).fill("Ada Admin");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Create the admin account" }).click();
    await page.getByRole("heading", { name: "Instance admin" }).waitFor();
    // The code left the address bar once it was spent.
    expect(page.url()).not.toContain(e2e.svc.services.setup.code);
    await page.getByRole("list", { name: "Users" }).getByText("Ada Admin").waitFor();

    // Sign-up is closed until the admin opens it here.
    const early = await e2e.svc.client().post("/api/v1/auth/sign-up", { email: freshEmail("early"), password: PASSWORD, name: "Early" });
    expect(early.status).toBe(403);
    await page.getByRole("checkbox", { name: "Anyone can create an account" }).check();
    await page.getByText("Saved.").waitFor();
    const { page: other } = await e2e.device();
    await signUp(other, "Newcomer", freshEmail("new"));

    // The way back in is a link in Settings, for instance admins only.
    await goTo(page, "Settings");
    await page.getByRole("link", { name: "Instance admin" }).waitFor();
    await goTo(other, "Settings");
    await other.getByRole("heading", { name: "Settings" }).waitFor();
    await expect(other.getByRole("link", { name: "Instance admin" }).count()).resolves.toBe(0);

    // A second setup is refused now.
    const again = await e2e.svc.client().post("/api/v1/setup", { code: e2e.svc.services.setup.code, email: freshEmail("x"), name: "X", password: PASSWORD });
    expect(again.status).toBe(409);

    await page.setViewportSize({ width: 360, height: 780 });
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto("/admin");
    await page.getByRole("heading", { name: "إدارة النسخة" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await noSideScroll(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "admin-arabic-phone");
  });

  it("an owner revokes an invitation, makes a managed account whose code signs it in, and deletes a location", async ({ e2e, newPerson }) => {
    const { context, page, email, locationId, client } = await newPerson("Olive Owner", "olive");
    await page.getByRole("heading", { name: "Things" }).waitFor();
    const owner = await client();

    // The empty Things list has a hint: dismissed offline, it is gone at once and reaches the server once back online.
    await page.getByRole("complementary", { name: /tap Capture/ }).waitFor();
    await context.setOffline(true);
    await page.getByRole("button", { name: "Dismiss hint" }).click();
    await expect(page.getByRole("complementary", { name: /tap Capture/ }).count()).resolves.toBe(0);
    expect((await owner.get("/api/v1/me/hints")).body.items).toEqual([]);
    await context.setOffline(false);
    await expect
      .poll(async () => (await owner.get("/api/v1/me/hints")).body.items, { timeout: 10_000 })
      .toEqual([expect.objectContaining({ key: "things.empty", dismissed: true })]);

    // An invitation, listed, then revoked: its link no longer works.
    await page.goto(`/l/${locationId}/members`);
    await page.getByRole("button", { name: "Create invitation" }).click();
    const link = await page.getByRole("textbox", { name: "Invitation link (shown once)" }).inputValue();
    const token = decodeURIComponent(link.split("#token=")[1]!);
    const invitations = page.getByRole("region", { name: "Invitations" });
    await invitations.getByText(/Waiting, until/).waitFor();
    await invitations.getByRole("button", { name: "Revoke invitation for Anyone with the link" }).click();
    await invitations.getByText("Revoked").waitFor();
    const guest = await e2e.svc.signedIn("Guest");
    expect((await guest.post("/api/v1/invites/accept", { token })).status).toBe(404);

    // A managed account: its code is shown once, with a copy button.
    const managed = page.getByRole("region", { name: "Managed accounts" });
    const username = `kid_${Date.now().toString(36)}`;
    await managed.getByLabel("Username").fill(username);
    await managed.getByLabel("Display name").fill("Kiddo");
    await managed.getByRole("button", { name: "Create managed account" }).click();
    const code = await managed.getByRole("textbox", { name: "One-time code for Kiddo" }).inputValue();
    expect(code.length).toBeGreaterThan(5);
    await managed.getByRole("button", { name: "Copy", exact: true }).waitFor();
    await page.getByRole("combobox", { name: "Role of Kiddo" }).waitFor();

    // The person sets their password with the code, then signs in with their username.
    const { page: kid } = await e2e.device();
    await kid.goto("/sign-in");
    await kid.getByRole("radio", { name: "With a code from an admin" }).check();
    await kid.getByLabel("Username").fill(username);
    await kid.getByLabel("One-time code").fill(code);
    await kid.getByLabel("New password").fill(PASSWORD);
    await kid.getByRole("button", { name: "Set password" }).click();
    await kid.getByText("Your password is set.", { exact: false }).waitFor();
    await signIn(kid, username);
    await kid.getByRole("navigation", { name: "Main" }).waitFor();

    // A reset hands over a new code; the old one is spent.
    await managed.getByRole("button", { name: "Reset Kiddo" }).click();
    let second = "";
    await expect
      .poll(async () => {
        second = (await managed.getByRole("textbox", { name: "One-time code for Kiddo" }).count())
          ? await managed.getByRole("textbox", { name: "One-time code for Kiddo" }).inputValue()
          : "";
        return second !== "" && second !== code;
      })
      .toBe(true);
    const redeem = (c: string) => e2e.svc.client().post("/api/v1/auth/reset-code", { username, code: c, password: "another good password" });
    expect((await redeem(code)).status).toBe(400);
    expect((await redeem(second)).status).toBe(200);

    // A hint dismissed on this device stays away on another device of the same person.
    await page.goto(`/l/${locationId}/inbox`);
    await page.getByRole("complementary", { name: /the inbox collects/ }).waitFor();
    await page.getByRole("button", { name: "Dismiss hint" }).click();
    await expect
      .poll(async () => (await owner.get("/api/v1/me/hints")).body.items.map((h: { key: string }) => h.key), { timeout: 10_000 })
      .toEqual(["inbox", "things.empty"]);
    const { page: laptop } = await e2e.device();
    await signIn(laptop, email);
    await laptop.getByRole("navigation", { name: "Main" }).waitFor();
    await laptop.goto(`/l/${locationId}/inbox`);
    await laptop.getByRole("heading", { name: "Inbox" }).waitFor();
    await expect.poll(() => laptop.getByRole("button", { name: "Dismiss hint" }).count(), { timeout: 10_000 }).toBe(0);

    // Arabic at 360 px: the Members screen with its new sections.
    await page.setViewportSize({ width: 360, height: 780 });
    await goTo(page, "Settings");
    await page.getByRole("radio", { name: "العربية" }).check();
    await page.goto(`/l/${locationId}/members`);
    await page.getByRole("heading", { name: "الحسابات المُدارة" }).waitFor();
    await page.getByRole("region", { name: "الحسابات المُدارة" }).getByText("Kiddo").waitFor();
    await page.getByRole("region", { name: "الدعوات" }).getByText("ملغاة").waitFor();
    expect(await noSideScroll(page)).toBeLessThanOrEqual(0);
    await screenshot(page, "members-arabic-phone");
    await page.goto("/settings");
    await page.getByRole("radio", { name: "English" }).check();
    await page.setViewportSize({ width: 412, height: 860 });

    // A shared location, deleted from its settings with its name typed.
    const made = await owner.post("/api/v1/locations", { name: "Old Flat" });
    expect(made.status).toBe(201);
    await page.goto(`/l/${made.body.id}/settings`);
    await page.getByRole("heading", { name: "Location settings" }).waitFor();
    const del = page.getByRole("button", { name: "Delete location" });
    await page.getByLabel("Type the location’s name to confirm deleting it").fill("Old");
    await expect(del.isDisabled()).resolves.toBe(true);
    await page.getByLabel("Type the location’s name to confirm deleting it").fill("Old Flat");
    await del.click();
    await page.waitForURL((u) => u.pathname === "/locations");
    await expect.poll(async () => (await owner.get("/api/v1/locations")).body.items.map((l: { id: string }) => l.id)).not.toContain(made.body.id);

    // It waits in the trash on the Locations screen; restored, it is back in the list (through sync).
    const trash = page.getByRole("region", { name: "Deleted locations" });
    await trash.getByText(/removed for good after/).waitFor();
    await trash.getByRole("button", { name: "Restore Old Flat" }).click();
    await page.getByText("Old Flat is back.").waitFor();
    await page.getByRole("link", { name: /^Old Flat/ }).waitFor({ timeout: 20_000 });
    expect((await owner.get("/api/v1/locations")).body.items.map((l: { id: string }) => l.id)).toContain(made.body.id);
  });
});
