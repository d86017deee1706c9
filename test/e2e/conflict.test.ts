/**
 * Two devices edit the same thing offline (sync/SPEC.md VE3): the first to reconnect wins; the
 * other's edit comes back as a sync_drop in the inbox, saying what was dropped and why, and
 * re-applying it (DR5) makes it the thing's name on the server.
 */
import { describe, expect } from "vitest";
import { e2eTest as it } from "./support/fixtures.js";
import type { Page } from "playwright-core";
import { freshEmail, goTo, locationIdOf, PASSWORD, signUp, synced } from "./support/app.js";
import { screenshot } from "./support/browser.js";

async function rename(page: Page, to: string) {
  await page.getByLabel("Name", { exact: true }).fill(to);
  await page.getByRole("button", { name: "Save changes" }).click();
  await page.getByText("Saved. It syncs when there is a connection.").waitFor();
}

describe("two devices edit the same thing offline", () => {
  it("PU4/VE3/DR5 one edit wins, the other becomes a sync_drop in the inbox and can be re-applied", async ({ e2e }) => {
    // Owner on a desktop: captures a lamp, accepts it from the inbox, invites a member.
    const a = await e2e.device({ viewport: { width: 1280, height: 800 } });
    const ownerEmail = freshEmail("olga");
    await signUp(a.page, "Olga Owner", ownerEmail);
    const locationId = await locationIdOf(a.page);
    await goTo(a.page, "Capture");
    await a.page.getByLabel("Name", { exact: true }).fill("Lamp");
    await a.page.getByRole("button", { name: "Save thing" }).click();
    await goTo(a.page, "Inbox");
    await a.page.getByRole("button", { name: "Accept: Lamp" }).click();
    await synced(a.page);

    await goTo(a.page, "Members");
    await a.page.getByLabel("Role", { exact: true }).selectOption({ label: "Member" });
    await a.page.getByRole("button", { name: "Create invitation" }).click();
    const inviteLink = await a.page.getByLabel("Invitation link (shown once)").inputValue();
    await screenshot(a.page, "members-desktop");

    // The member joins from the invitation on a phone and opens the lamp.
    const b = await e2e.device();
    await signUp(b.page, "Mina Member", freshEmail("mina"), inviteLink);
    await b.page.goto(`/l/${locationId}/things`);
    await b.page.getByRole("link", { name: /Lamp/ }).click();
    await a.page.goto(`/l/${locationId}/things`);
    await a.page.getByRole("link", { name: /Lamp/ }).click();
    await a.page.getByRole("heading", { name: "Lamp" }).waitFor();
    await b.page.getByRole("heading", { name: "Lamp" }).waitFor();
    await screenshot(a.page, "thing-detail-desktop");

    await a.context.setOffline(true);
    await b.context.setOffline(true);
    await rename(a.page, "Desk lamp");
    await rename(b.page, "Reading lamp");

    await a.context.setOffline(false);
    await synced(a.page);
    await b.context.setOffline(false);
    await synced(b.page);

    const owner = e2e.svc.client();
    await owner.post("/api/v1/auth/sign-in/email", { email: ownerEmail, password: PASSWORD });
    const things = async () => (await owner.get(`/api/v1/locations/${locationId}/things`)).body.items.map((t: { name: string }) => t.name);
    expect(await things()).toEqual(["Desk lamp"]);

    // The member's device shows the winner, and the inbox says what did not apply and why.
    await b.page.getByRole("heading", { name: "Desk lamp" }).waitFor();
    await goTo(b.page, "Inbox");
    const drop = b.page.getByRole("article", { name: "Change not applied: Desk lamp" });
    await drop.getByText("Why: someone else changed the same thing first").waitFor();
    await drop.getByText("Change: name: “Reading lamp”").waitFor();
    await screenshot(b.page, "inbox-sync-drop");

    await drop.getByRole("button", { name: "Re-apply: Desk lamp" }).click();
    await synced(b.page);
    await expect.poll(things, { timeout: 15_000 }).toEqual(["Reading lamp"]);
    await expect.poll(() => drop.count()).toBe(0);
    await a.page.getByRole("heading", { name: "Reading lamp" }).waitFor();
  });
});
